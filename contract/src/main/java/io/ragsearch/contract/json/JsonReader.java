package io.ragsearch.contract.json;

import io.ragsearch.contract.ContractException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 reader into plain values: {@code Map<String,Object>} (insertion order),
 * {@code List<Object>}, {@code String}, {@code BigDecimal}, {@code Boolean} and {@code null}.
 * Numbers stay exact so that a reader can refuse 2.5 where a whole number belongs. Duplicate
 * keys are errors: two values for one field would make the answer depend on the parser.
 */
public final class JsonReader {
    /** What the contract carries is a few KiB; the bounds keep a hostile peer from costing more. */
    public static final int MAX_CHARS = 1 << 20;
    static final int MAX_DEPTH = 32;

    private final String text;
    private int pos;

    private JsonReader(String text) {
        this.text = text;
    }

    /** The one value the text holds, nothing before or after it but white space. */
    public static Object parse(String text) {
        if (text == null) {
            throw new ContractException("no JSON text (null)");
        }
        if (text.length() > MAX_CHARS) {
            throw new ContractException("JSON text of " + text.length() + " characters is over the limit of " + MAX_CHARS);
        }
        JsonReader reader = new JsonReader(text);
        reader.skipSpace();
        Object value = reader.value(0);
        reader.skipSpace();
        if (reader.pos != text.length()) {
            throw reader.error("unexpected text after the value");
        }
        return value;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH + " levels");
        }
        if (pos >= text.length()) {
            throw error("the text ends where a value belongs");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> object(int depth) {
        pos++;
        Map<String, Object> members = new LinkedHashMap<>();
        skipSpace();
        if (peek('}')) {
            pos++;
            return members;
        }
        while (true) {
            skipSpace();
            if (!peek('"')) {
                throw error("a field name in double quotes expected");
            }
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            Object v = value(depth + 1);
            if (members.containsKey(key)) {
                throw error("field '" + key + "' appears twice");
            }
            members.put(key, v);
            skipSpace();
            if (peek(',')) {
                pos++;
                continue;
            }
            expect('}');
            return members;
        }
    }

    private List<Object> array(int depth) {
        pos++;
        List<Object> items = new ArrayList<>();
        skipSpace();
        if (peek(']')) {
            pos++;
            return items;
        }
        while (true) {
            skipSpace();
            items.add(value(depth + 1));
            skipSpace();
            if (peek(',')) {
                pos++;
                continue;
            }
            expect(']');
            return Collections.unmodifiableList(items);
        }
    }

    private String string() {
        pos++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("a string is not closed");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("a control character inside a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) {
                throw error("a string is not closed");
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("a \\u escape needs four hex digits");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("a \\u escape needs four hex digits");
                    }
                    pos += 4;
                }
                default -> throw error("unknown escape \\" + e);
            }
        }
    }

    private BigDecimal number() {
        int start = pos;
        if (peek('-')) {
            pos++;
        }
        if (peek('0')) {
            pos++;
        } else if (!digits()) {
            throw error("a digit expected");
        }
        if (peek('.')) {
            pos++;
            if (!digits()) {
                throw error("a digit expected after the decimal point");
            }
        }
        if (peek('e') || peek('E')) {
            pos++;
            if (peek('+') || peek('-')) {
                pos++;
            }
            if (!digits()) {
                throw error("a digit expected in the exponent");
            }
        }
        try {
            BigDecimal n = new BigDecimal(text.substring(start, pos));
            // 1e999999999 is a valid number whose exact expansion would cost gigabytes.
            if (Math.abs((long) n.scale()) > 400) {
                throw error("a number's exponent is out of range");
            }
            return n;
        } catch (NumberFormatException ex) {
            throw error("a malformed number");
        }
    }

    private boolean digits() {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        return pos > start;
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected word");
        }
        pos += word.length();
        return value;
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "' expected");
        }
        pos++;
    }

    private ContractException error(String what) {
        return new ContractException("malformed JSON at character " + pos + ": " + what);
    }
}
