package io.ragsearch.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

/**
 * A minimal Prometheus registry: counters, gauges and histograms with one optional label set,
 * rendered in the text exposition format. Small enough that a client library would add more
 * than it saves.
 */
public final class Metrics {

    /** Latency buckets in seconds: from a cached lexical search to a slow rerank under load. */
    public static final double[] LATENCY_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

    private final Map<String, Family> families = new ConcurrentSkipListMap<>();

    /** Family keys are {@code name{labels}}: '{' sorts after every name character, so one name's series stay together. */
    public Counter counter(String name, String help, String labels) {
        return (Counter) families.computeIfAbsent(name + "{" + labels + "}", k -> new Counter(name, help, labels));
    }

    public void gauge(String name, String help, DoubleSupplier value) {
        gauge(name, help, "", value);
    }

    /** A gauge with one label set, e.g. {@code area="heap"}; the same name with other labels is the same family. */
    public void gauge(String name, String help, String labels, DoubleSupplier value) {
        families.put(name + "{" + labels + "}", new Gauge(name, help, labels, value, "gauge"));
    }

    /**
     * A counter whose value something else keeps (a count that only grows, read when scraped):
     * typed {@code counter}, so its name ends in {@code _total}.
     */
    public void counterFunction(String name, String help, DoubleSupplier value) {
        if (!name.endsWith("_total")) {
            throw new IllegalArgumentException("a counter's name ends in _total: " + name);
        }
        families.put(name + "{}", new Gauge(name, help, "", value, "counter"));
    }

    public Histogram histogram(String name, String help, double[] buckets) {
        return (Histogram) families.computeIfAbsent(name + "{}", k -> new Histogram(name, help, buckets));
    }

    /** A label value escaped for the text format (backslash, quote, newline). */
    public static String labelValue(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        List<String> typed = new ArrayList<>();
        for (Family f : families.values()) {
            if (!typed.contains(f.name)) {
                typed.add(f.name);
                out.append("# HELP ").append(f.name).append(' ').append(f.help).append('\n');
                out.append("# TYPE ").append(f.name).append(' ').append(f.type()).append('\n');
            }
            f.render(out);
        }
        return out.toString();
    }

    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    private abstract static class Family {
        final String name;
        final String help;

        Family(String name, String help) {
            this.name = name;
            this.help = help;
        }

        abstract String type();

        abstract void render(StringBuilder out);
    }

    /** A monotonically growing count; {@code labels} is the rendered label set, e.g. {@code tool="search"}. */
    public static final class Counter extends Family {
        private final String labels;
        private final LongAdder value = new LongAdder();

        Counter(String name, String help, String labels) {
            super(name, help);
            this.labels = labels;
        }

        public void inc() {
            value.increment();
        }

        public void inc(long n) {
            value.add(n);
        }

        public long value() {
            return value.sum();
        }

        @Override
        String type() {
            return "counter";
        }

        @Override
        void render(StringBuilder out) {
            out.append(name).append(labels.isEmpty() ? "" : "{" + labels + "}").append(' ').append(value.sum()).append('\n');
        }
    }

    /** A value read when scraped: a gauge, or a counter kept elsewhere. */
    private static final class Gauge extends Family {
        private final String labels;
        private final DoubleSupplier value;
        private final String type;

        Gauge(String name, String help, String labels, DoubleSupplier value, String type) {
            super(name, help);
            this.labels = labels;
            this.value = value;
            this.type = type;
        }

        @Override
        String type() {
            return type;
        }

        @Override
        void render(StringBuilder out) {
            out.append(name).append(labels.isEmpty() ? "" : "{" + labels + "}").append(' ')
                    .append(number(value.getAsDouble())).append('\n');
        }
    }

    /** Cumulative-bucket histogram of seconds. */
    public static final class Histogram extends Family {
        private final double[] bounds;
        private final LongAdder[] counts;
        private final DoubleAdder sum = new DoubleAdder();
        private final LongAdder count = new LongAdder();

        Histogram(String name, String help, double[] bounds) {
            super(name, help);
            this.bounds = bounds.clone();
            this.counts = new LongAdder[bounds.length];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = new LongAdder();
            }
        }

        public void observe(double seconds) {
            for (int i = 0; i < bounds.length; i++) {
                if (seconds <= bounds[i]) {
                    counts[i].increment();
                    break;
                }
            }
            sum.add(seconds);
            count.increment();
        }

        public long count() {
            return count.sum();
        }

        @Override
        String type() {
            return "histogram";
        }

        @Override
        void render(StringBuilder out) {
            long cumulative = 0;
            for (int i = 0; i < bounds.length; i++) {
                cumulative += counts[i].sum();
                out.append(name).append("_bucket{le=\"").append(number(bounds[i])).append("\"} ").append(cumulative).append('\n');
            }
            out.append(name).append("_bucket{le=\"+Inf\"} ").append(count.sum()).append('\n');
            out.append(name).append("_sum ").append(number(sum.sum())).append('\n');
            out.append(name).append("_count ").append(count.sum()).append('\n');
        }
    }

}
