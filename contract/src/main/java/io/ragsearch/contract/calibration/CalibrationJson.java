package io.ragsearch.contract.calibration;

import io.ragsearch.contract.ContractException;
import io.ragsearch.contract.json.JsonReader;
import io.ragsearch.contract.json.JsonWriter;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The calibration's JSON form: the server writes it, the operator (and anyone else) reads it,
 * both through here. Reading is strict about the contract's fields — a missing or mistyped size
 * must not read as 0 bytes, which would look like a free run — and ignores fields it does not
 * know, so a newer server can add some for people.
 */
public final class CalibrationJson {
    private CalibrationJson() {
    }

    public static String write(Calibration c) {
        return JsonWriter.write(toMap(c));
    }

    /** The measurement with the bound the server runs with now under {@code live}. */
    public static String write(Calibration c, LiveRerank live) {
        Map<String, Object> m = toMap(c);
        if (live != null) {
            m.put("live", liveMap(live));
        }
        return JsonWriter.write(m);
    }

    /** The live block alone (what a memory-limit announcement answers). */
    public static String writeLive(LiveRerank live) {
        return JsonWriter.write(liveMap(live));
    }

    private static Map<String, Object> liveMap(LiveRerank live) {
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("memoryLimitBytes", live.memoryLimitBytes());
        l.put("limitSource", live.limitSource());
        l.put("concurrency", live.concurrency());
        l.put("inFlight", live.inFlight());
        l.put("inForce", live.inForce());
        l.put("retunes", live.retunes());
        l.put("retunedAt", live.retunedAt());
        l.put("cpuLimitMillis", live.cpuLimitMillis());
        return l;
    }

    /** The {@code live} block of a pod's answer; empty from a server that does not re-tune live. */
    public static java.util.Optional<LiveRerank> parseLive(String json) {
        Object root = JsonReader.parse(json);
        if (!(root instanceof Map<?, ?> map)) {
            throw new ContractException("a calibration is a JSON object");
        }
        Map<String, Object> raw = new Fields(map, "").optionalObject("live");
        if (raw == null) {
            return java.util.Optional.empty();
        }
        Fields l = new Fields(raw, "live");
        Boolean inForce = l.optionalBoolean("inForce");
        if (inForce == null) {
            throw new ContractException("calibration field live.inForce is missing");
        }
        return java.util.Optional.of(new LiveRerank(l.optionalWholeLong("memoryLimitBytes"), l.requiredText("limitSource"),
                l.wholeInt("concurrency"), l.wholeInt("inFlight"), inForce, l.wholeInt("retunes"), l.optionalText("retunedAt"),
                l.optionalWholeLong("cpuLimitMillis")));
    }

    private static Map<String, Object> toMap(Calibration c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("method", c.method());
        m.put("memoryLimitBytes", c.memoryLimitBytes());
        m.put("residentBytes", c.residentBytes());
        m.put("perRunBytes", c.perRunBytes());
        m.put("samples", c.samples());
        m.put("batch", c.batch());
        m.put("maxSeqLen", c.maxSeqLen());
        m.put("intraOpThreads", c.intraOpThreads());
        m.put("rerankerDigest", c.rerankerDigest());
        m.put("measuredAt", c.measuredAt());
        putIfPresent(m, "reranker", c.reranker());
        putIfPresent(m, "trained", c.trained());
        if (c.levels() != null) {
            List<Object> levels = new ArrayList<>();
            for (Calibration.Level l : c.levels()) {
                Map<String, Object> level = new LinkedHashMap<>();
                level.put("concurrency", l.concurrency());
                level.put("peakBytes", l.peakBytes());
                level.put("perRunBytes", l.perRunBytes());
                level.put("seconds", l.seconds());
                levels.add(level);
            }
            m.put("levels", levels);
        }
        putIfPresent(m, "memorySettings", c.memorySettings());
        putIfPresent(m, "methodReason", c.methodReason());
        if (c.rerankers() != null) {
            m.put("rerankers", c.rerankers().stream().map(CalibrationJson::toMap).toList());
        }
        return m;
    }

    private static void putIfPresent(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }

    /** Parses a pod's answer, or a saved copy of one. */
    public static Calibration parse(String json) {
        Object root = JsonReader.parse(json);
        if (!(root instanceof Map<?, ?> map)) {
            throw new ContractException("a calibration is a JSON object");
        }
        return fromMap(new Fields(map, ""));
    }

    private static Calibration fromMap(Fields f) {
        List<Calibration.Level> levels = null;
        List<Object> rawLevels = f.list("levels");
        if (rawLevels != null) {
            levels = new ArrayList<>();
            for (int i = 0; i < rawLevels.size(); i++) {
                Fields l = f.object(rawLevels.get(i), "levels[" + i + "]");
                levels.add(new Calibration.Level(l.wholeInt("concurrency"), l.wholeLong("peakBytes"),
                        l.wholeLong("perRunBytes"), l.decimal("seconds")));
            }
        }
        List<Calibration> each = null;
        List<Object> rawRerankers = f.list("rerankers");
        if (rawRerankers != null) {
            each = new ArrayList<>();
            for (int i = 0; i < rawRerankers.size(); i++) {
                each.add(fromMap(f.object(rawRerankers.get(i), "rerankers[" + i + "]")));
            }
        }
        return new Calibration(f.requiredText("method"), f.optionalWholeLong("memoryLimitBytes"),
                f.wholeLong("residentBytes"), f.wholeLong("perRunBytes"), f.wholeInt("samples"), f.wholeInt("batch"),
                f.wholeInt("maxSeqLen"), f.wholeInt("intraOpThreads"), f.optionalText("rerankerDigest"),
                f.optionalText("measuredAt"), f.optionalText("reranker"), f.optionalBoolean("trained"), levels,
                f.optionalObject("memorySettings"), f.optionalText("methodReason"), each);
    }

    /** One JSON object's fields with the error messages naming the field path. */
    private record Fields(Map<?, ?> map, String prefix) {
        private String path(String name) {
            return prefix.isEmpty() ? name : prefix + "." + name;
        }

        private Object required(String name) {
            if (!map.containsKey(name) || map.get(name) == null) {
                throw new ContractException("calibration field " + path(name) + " is missing");
            }
            return map.get(name);
        }

        String requiredText(String name) {
            if (required(name) instanceof String s) {
                return s;
            }
            throw wrongType(name, "a string");
        }

        String optionalText(String name) {
            Object v = map.get(name);
            if (v == null || v instanceof String) {
                return (String) v;
            }
            throw wrongType(name, "a string");
        }

        Boolean optionalBoolean(String name) {
            Object v = map.get(name);
            if (v == null || v instanceof Boolean) {
                return (Boolean) v;
            }
            throw wrongType(name, "true or false");
        }

        long wholeLong(String name) {
            return whole(name, required(name));
        }

        Long optionalWholeLong(String name) {
            Object v = map.get(name);
            return v == null ? null : whole(name, v);
        }

        int wholeInt(String name) {
            long v = wholeLong(name);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new ContractException("calibration field " + path(name) + " is out of range: " + v);
            }
            return (int) v;
        }

        double decimal(String name) {
            if (required(name) instanceof BigDecimal n) {
                return n.doubleValue();
            }
            throw wrongType(name, "a number");
        }

        private long whole(String name, Object v) {
            if (!(v instanceof BigDecimal n)) {
                throw wrongType(name, "a whole number");
            }
            try {
                return n.longValueExact();
            } catch (ArithmeticException e) {
                throw new ContractException("calibration field " + path(name) + " must be a whole number of at most 19 digits, got " + n);
            }
        }

        List<Object> list(String name) {
            Object v = map.get(name);
            if (v == null) {
                return null;
            }
            if (v instanceof List<?> l) {
                return new ArrayList<>(l);
            }
            throw wrongType(name, "a list");
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> optionalObject(String name) {
            Object v = map.get(name);
            if (v == null) {
                return null;
            }
            if (v instanceof Map<?, ?> m) {
                return (Map<String, Object>) m;
            }
            throw wrongType(name, "an object");
        }

        Fields object(Object v, String where) {
            if (v instanceof Map<?, ?> m) {
                return new Fields(m, prefix.isEmpty() ? where : prefix + "." + where);
            }
            throw new ContractException("calibration field " + path(where) + " must be an object");
        }

        private ContractException wrongType(String name, String expected) {
            return new ContractException("calibration field " + path(name) + " must be " + expected);
        }
    }
}
