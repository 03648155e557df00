package io.ragsearch.verification;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The first place two JSON values (maps, lists, strings, numbers, booleans, null as read by
 * Jackson) differ, as a path and both sides. Numbers compare by value: 1 and 1.0 from two readers are equal.
 */
final class JsonDiff {

    private JsonDiff() {
    }

    /** "search.inputSchema.properties.top_k.maximum: 20 → 10", or null when equal. */
    static String first(Object a, Object b, String path) {
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            TreeSet<String> keys = new TreeSet<>();
            ma.keySet().forEach(k -> keys.add(String.valueOf(k)));
            mb.keySet().forEach(k -> keys.add(String.valueOf(k)));
            for (String k : keys) {
                String sub = path.isEmpty() ? k : path + "." + k;
                if (!ma.containsKey(k)) {
                    return sub + ": added";
                }
                if (!mb.containsKey(k)) {
                    return sub + ": removed";
                }
                String d = first(ma.get(k), mb.get(k), sub);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        if (a instanceof List<?> la && b instanceof List<?> lb) {
            for (int i = 0; i < Math.min(la.size(), lb.size()); i++) {
                String d = first(la.get(i), lb.get(i), path + "[" + i + "]");
                if (d != null) {
                    return d;
                }
            }
            return la.size() == lb.size() ? null : path + ": " + la.size() + " → " + lb.size() + " items";
        }
        if (a instanceof Number na && b instanceof Number nb) {
            return new BigDecimal(na.toString()).compareTo(new BigDecimal(nb.toString())) == 0 ? null
                    : path + ": " + short_(a) + " → " + short_(b);
        }
        return java.util.Objects.equals(a, b) ? null : path + ": " + short_(a) + " → " + short_(b);
    }

    private static String short_(Object v) {
        String s = v instanceof String str ? "\"" + str + "\"" : String.valueOf(v);
        return Calls.cut(s, 40);
    }
}
