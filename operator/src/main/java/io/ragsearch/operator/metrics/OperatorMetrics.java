package io.ragsearch.operator.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's Prometheus metrics (its /metrics): reconciles by outcome, their duration,
 * errors, and the current decision per RagSearch (effective and safe concurrency, replicas,
 * whether the spec is valid), in Prometheus text. (The server's registry is not on the
 * operator's class path; the few families here are written out directly.)
 */
public final class OperatorMetrics {

    /** What the last reconcile of one RagSearch decided. {@code safe} is null before any measurement. */
    public record Decision(int effective, Integer safe, int replicas, int readyReplicas, boolean valid) {
    }

    /**
     * A decision not refreshed for this long belongs to a deleted RagSearch (settled ones are
     * reconciled every 5 minutes); there is no finalizer to say so, so it ages out.
     */
    static final Duration STALE = Duration.ofMinutes(15);

    /** Seconds: a reconcile is API calls and a few pod reads with 3 s timeouts. */
    static final double[] BUCKETS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

    private final Map<String, java.util.concurrent.atomic.LongAdder> reconciles = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.LongAdder[] buckets = new java.util.concurrent.atomic.LongAdder[BUCKETS.length];
    private final java.util.concurrent.atomic.LongAdder count = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.DoubleAdder sum = new java.util.concurrent.atomic.DoubleAdder();
    private final Map<String, Entry> decisions = new ConcurrentHashMap<>();

    public OperatorMetrics() {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new java.util.concurrent.atomic.LongAdder();
        }
    }

    private record Entry(Decision decision, Instant at) {
    }

    /** @param outcome valid, invalid (the spec failed its checks) or error (the reconcile threw) */
    public void reconciled(String outcome, Duration took) {
        reconciles.computeIfAbsent(outcome, k -> new java.util.concurrent.atomic.LongAdder()).increment();
        double seconds = took.toNanos() / 1e9;
        for (int i = 0; i < BUCKETS.length; i++) {
            if (seconds <= BUCKETS[i]) {
                buckets[i].increment();
            }
        }
        count.increment();
        sum.add(seconds);
    }

    public void decided(String namespace, String name, Decision decision) {
        decisions.put(namespace + "/" + name, new Entry(decision, Instant.now()));
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("# HELP ragsearch_operator_reconciles_total Reconciles by outcome (valid, invalid spec, error)\n")
                .append("# TYPE ragsearch_operator_reconciles_total counter\n");
        new java.util.TreeMap<>(reconciles).forEach((outcome, n) -> out.append("ragsearch_operator_reconciles_total{outcome=\"")
                .append(outcome).append("\"} ").append(n.sum()).append('\n'));
        out.append("# HELP ragsearch_operator_reconcile_seconds Time one reconcile took\n")
                .append("# TYPE ragsearch_operator_reconcile_seconds histogram\n");
        for (int i = 0; i < BUCKETS.length; i++) {
            out.append("ragsearch_operator_reconcile_seconds_bucket{le=\"").append(BUCKETS[i]).append("\"} ")
                    .append(buckets[i].sum()).append('\n');
        }
        out.append("ragsearch_operator_reconcile_seconds_bucket{le=\"+Inf\"} ").append(count.sum()).append('\n')
                .append("ragsearch_operator_reconcile_seconds_sum ").append(String.format(Locale.ROOT, "%.6f", sum.sum())).append('\n')
                .append("ragsearch_operator_reconcile_seconds_count ").append(count.sum()).append('\n');
        Instant cutoff = Instant.now().minus(STALE);
        decisions.values().removeIf(e -> e.at().isBefore(cutoff));
        gauge(out, "ragsearch_operator_rerank_concurrency", "Rerank concurrency the pods run (after an in-place resize, the live bound they report)", d -> d.effective());
        gauge(out, "ragsearch_operator_rerank_safe_concurrency", "Safe concurrency from the measurement (-1: none yet)",
                d -> d.safe() == null ? -1 : d.safe());
        gauge(out, "ragsearch_operator_replicas", "Desired replicas", Decision::replicas);
        gauge(out, "ragsearch_operator_ready_replicas", "Ready pods of the current template", Decision::readyReplicas);
        gauge(out, "ragsearch_operator_spec_valid", "1 when the spec passed its checks", d -> d.valid() ? 1 : 0);
        return out.toString();
    }

    private void gauge(StringBuilder out, String name, String help, java.util.function.ToIntFunction<Decision> value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" gauge\n");
        new java.util.TreeMap<>(decisions).forEach((key, e) -> {
            int slash = key.indexOf('/');
            out.append(String.format(Locale.ROOT, "%s{namespace=\"%s\",name=\"%s\"} %d%n", name, key.substring(0, slash),
                    key.substring(slash + 1), value.applyAsInt(e.decision())));
        });
    }
}
