package io.ragsearch.operator.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A worst-case cost bound of a CEL rule from the schema's bounds, after the estimator the API
 * server runs when a CRD is written (cel-go's checker cost model as Kubernetes configures it):
 * identifiers and field selections cost 1, literals 0, a list literal 10 plus its elements,
 * string comparisons 1 + 0.1 per character of the shorter side, a comprehension (all, exists,
 * exists_one, filter, map) its body plus the loop's own steps once per element of the largest
 * list the schema allows. An unbounded string or list counts as large as the 3 MiB request that
 * could carry it. The rule's total is that cost times how often it runs: the product of the
 * maxItems / maxProperties of the lists and maps around it. Covers the CEL the CRD uses (and the
 * rule it replaced); anything else fails loudly rather than guessing.
 */
final class CelCostEstimate {
    /** The API server's per-rule budget for the estimated cost (StaticEstimatedCostLimit). */
    static final long PER_RULE_BUDGET = 10_000_000L;
    /** And for all rules of a CRD together. */
    static final long PER_CRD_BUDGET = 100_000_000L;
    /** The largest request the API server takes: what bounds an unbounded list or string. */
    static final long MAX_REQUEST_BYTES = 3L * 1024 * 1024;
    static final long LIST_CREATE = 10;
    /** Loop condition and step of a comprehension, per element (an accumulator read and a call each). */
    static final long LOOP_STEP = 3;
    static final double STRING_TRAVERSAL = 0.1;

    /** A value's shape: kind, and for strings and lists their largest size. */
    record Shape(String kind, long maxSize, JSONSchemaProps schema) {
        static Shape of(JSONSchemaProps s) {
            if (s == null) {
                return new Shape("dyn", MAX_REQUEST_BYTES, null);
            }
            if (Boolean.TRUE.equals(s.getXKubernetesIntOrString())) {
                return new Shape("dyn", s.getMaxLength() == null ? MAX_REQUEST_BYTES : s.getMaxLength(), s);
            }
            String t = s.getType() == null ? "object" : s.getType();
            return switch (t) {
                case "string" -> new Shape("string", s.getMaxLength() == null ? MAX_REQUEST_BYTES - 2 : s.getMaxLength(), s);
                case "array" -> new Shape("list", s.getMaxItems() == null
                        ? MAX_REQUEST_BYTES / (minSerializedSize(s.getItems().getSchema()) + 1) : s.getMaxItems(), s);
                case "integer", "number", "boolean" -> new Shape(t, 0, s);
                default -> new Shape("object", 0, s);
            };
        }

        static Shape scalar(String kind) {
            return new Shape(kind, 0, null);
        }
    }

    /** The smallest JSON an element can be: what an unbounded list is divided by. */
    static long minSerializedSize(JSONSchemaProps s) {
        if (s == null || s.getType() == null) {
            return 1;
        }
        return switch (s.getType()) {
            case "string" -> 2;
            case "boolean" -> 4;
            case "integer", "number" -> 1;
            case "array" -> 2;
            default -> {
                long size = 2;
                for (String required : s.getRequired() == null ? List.<String>of() : s.getRequired()) {
                    size += required.length() + 3 + minSerializedSize(s.getProperties().get(required)) + 1;
                }
                yield size;
            }
        };
    }

    record Cost(long cost, Shape shape) {
    }

    private final List<String> tokens;
    private int at;
    private final Map<String, Shape> scope = new HashMap<>();

    private CelCostEstimate(String rule, JSONSchemaProps self) {
        this.tokens = tokenize(rule);
        scope.put("self", Shape.of(self));
    }

    /** The cost of one evaluation of {@code rule} on a value of schema {@code self}. */
    static long ofRule(String rule, JSONSchemaProps self) {
        CelCostEstimate e = new CelCostEstimate(rule, self);
        Cost c = e.ternary();
        if (e.at != e.tokens.size()) {
            throw new IllegalArgumentException("unparsed rest of '" + rule + "' at token " + e.tokens.get(e.at));
        }
        return c.cost();
    }

    // ---- parser and cost, one pass: grammar ternary > or > and > relation > unary > member > primary

    private Cost ternary() {
        Cost cond = or();
        if (!peek("?")) {
            return cond;
        }
        next();
        Cost yes = ternary();
        expect(":");
        Cost no = ternary();
        return new Cost(cond.cost() + Math.max(yes.cost(), no.cost()), yes.shape());
    }

    private Cost or() {
        Cost left = and();
        while (peek("||")) {
            next();
            left = new Cost(left.cost() + and().cost(), Shape.scalar("boolean"));
        }
        return left;
    }

    private Cost and() {
        Cost left = relation();
        while (peek("&&")) {
            next();
            left = new Cost(left.cost() + relation().cost(), Shape.scalar("boolean"));
        }
        return left;
    }

    private Cost relation() {
        Cost left = unary();
        for (String op : List.of("==", "!=", ">=", "<=", "<", ">")) {
            if (peek(op)) {
                next();
                Cost right = unary();
                return new Cost(left.cost() + right.cost() + compare(left.shape(), right.shape()), Shape.scalar("boolean"));
            }
        }
        return left;
    }

    /** Strings (and int-or-strings, which may be strings) are compared character by character. */
    private static long compare(Shape a, Shape b) {
        boolean textual = isText(a) && isText(b);
        if (!textual) {
            return 1;
        }
        return 1 + (long) Math.ceil(Math.min(a.maxSize(), b.maxSize()) * STRING_TRAVERSAL);
    }

    private static boolean isText(Shape s) {
        return s.kind().equals("string") || s.kind().equals("dyn");
    }

    private Cost unary() {
        if (peek("!")) {
            next();
            Cost c = unary();
            return new Cost(c.cost() + 1, Shape.scalar("boolean"));
        }
        return member();
    }

    private Cost member() {
        Cost c = primary();
        while (peek(".")) {
            next();
            String name = next();
            if (peek("(")) {
                c = method(c, name);
            } else {
                c = new Cost(c.cost() + 1, field(c.shape(), name));
            }
        }
        return c;
    }

    private Cost method(Cost target, String name) {
        expect("(");
        if (name.equals("size")) {
            expect(")");
            return new Cost(target.cost() + 1, Shape.scalar("integer"));
        }
        if (List.of("all", "exists", "exists_one", "filter", "map").contains(name)) {
            if (!target.shape().kind().equals("list")) {
                throw new IllegalArgumentException(name + " on a " + target.shape().kind());
            }
            String variable = next();
            expect(",");
            Shape element = target.shape().schema() == null ? Shape.scalar("boolean")
                    : Shape.of(target.shape().schema().getItems().getSchema());
            Shape outer = scope.put(variable, element);
            Cost body = ternary();
            restore(variable, outer);
            expect(")");
            long perElement = body.cost() + LOOP_STEP + (name.equals("filter") || name.equals("map") ? LIST_CREATE : 0);
            long n = target.shape().maxSize();
            Shape result = name.equals("filter") ? target.shape()
                    : name.equals("map") ? new Shape("list", n, null) : Shape.scalar("boolean");
            return new Cost(target.cost() + Math.multiplyExact(n, perElement), result);
        }
        throw new IllegalArgumentException("no cost model for ." + name + "()");
    }

    private void restore(String variable, Shape outer) {
        if (outer == null) {
            scope.remove(variable);
        } else {
            scope.put(variable, outer);
        }
    }

    private Cost primary() {
        String t = next();
        if (t.equals("(")) {
            Cost c = ternary();
            expect(")");
            return c;
        }
        if (t.equals("[")) {
            long cost = LIST_CREATE;
            int n = 0;
            while (!peek("]")) {
                cost += ternary().cost();
                n++;
                if (peek(",")) {
                    next();
                }
            }
            expect("]");
            return new Cost(cost, new Shape("list", n, null));
        }
        if (t.startsWith("'") || t.startsWith("\"")) {
            return new Cost(0, new Shape("string", t.length() - 2, null));
        }
        if (Character.isDigit(t.charAt(0))) {
            return new Cost(0, Shape.scalar("integer"));
        }
        if (t.equals("true") || t.equals("false")) {
            return new Cost(0, Shape.scalar("boolean"));
        }
        if (t.equals("has")) {
            expect("(");
            Cost inner = member();
            expect(")");
            return new Cost(inner.cost(), Shape.scalar("boolean"));
        }
        if (t.equals("type")) {
            expect("(");
            Cost inner = ternary();
            expect(")");
            return new Cost(inner.cost() + 1, Shape.scalar("type"));
        }
        if (t.equals("int") || t.equals("string")) {
            return new Cost(1, Shape.scalar("type"));
        }
        Shape bound = scope.get(t);
        if (bound == null) {
            throw new IllegalArgumentException("unknown identifier " + t);
        }
        return new Cost(1, bound);
    }

    private static Shape field(Shape of, String name) {
        if (of.schema() == null || of.schema().getProperties() == null || !of.schema().getProperties().containsKey(name)) {
            throw new IllegalArgumentException("no field " + name);
        }
        return Shape.of(of.schema().getProperties().get(name));
    }

    // ---- tokens

    private boolean peek(String t) {
        return at < tokens.size() && tokens.get(at).equals(t);
    }

    private String next() {
        return tokens.get(at++);
    }

    private void expect(String t) {
        String got = next();
        if (!got.equals(t)) {
            throw new IllegalArgumentException("expected " + t + ", got " + got);
        }
    }

    static List<String> tokenize(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else if (Character.isDigit(c)) {
                int j = i;
                while (j < s.length() && Character.isDigit(s.charAt(j))) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else if (c == '\'' || c == '"') {
                int j = s.indexOf(c, i + 1);
                out.add(s.substring(i, j + 1));
                i = j + 1;
            } else if (i + 1 < s.length() && List.of("==", "!=", ">=", "<=", "&&", "||").contains(s.substring(i, i + 2))) {
                out.add(s.substring(i, i + 2));
                i += 2;
            } else if ("()[],.!?:<>".indexOf(c) >= 0) {
                out.add(String.valueOf(c));
                i++;
            } else {
                throw new IllegalArgumentException("no token for '" + c + "' in " + s);
            }
        }
        return out;
    }
}
