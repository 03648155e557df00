package io.ragsearch.contract.json;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Writes plain values (maps, lists, strings, numbers, booleans, null) as compact JSON. */
public final class JsonWriter {
    private JsonWriter() {
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        append(out, value);
        return out.toString();
    }

    private static void append(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            string(out, s);
        } else if (value instanceof Boolean b) {
            out.append(b);
        } else if (value instanceof Double d) {
            finite(d);
            out.append(d);
        } else if (value instanceof Float f) {
            finite(f);
            out.append(f);
        } else if (value instanceof BigDecimal n) {
            out.append(n.toString());
        } else if (value instanceof Number n) {
            out.append(n.longValue());
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                string(out, String.valueOf(e.getKey()));
                out.append(':');
                append(out, e.getValue());
                if (it.hasNext()) {
                    out.append(',');
                }
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                append(out, list.get(i));
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getSimpleName());
        }
    }

    /** JSON has no NaN or infinity: writing one would hand the peer text it cannot read. */
    private static void finite(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("JSON has no number for " + d);
        }
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
