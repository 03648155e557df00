package io.ragsearch.sim.cluster;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.ragsearch.operator.model.RagSearch;
import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the operator did since a spec edit, for a wait that timed out: whether it is stuck (no
 * reconcile since the edit) or slow (reconciles, but the outcome not there yet). Read from the
 * RagSearch itself (generation against status.observedGeneration, when its status was last
 * written: the managedFields of the status subresource) and from each operator pod's /metrics
 * (its reconcile counter, against the count at the edit).
 */
public final class OperatorActivity {
    /** The chart's health port, where an operator pod serves /metrics. */
    public static final int OPERATOR_METRICS_PORT = 8080;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private final Supplier<List<Pod>> operatorPods;
    private final Supplier<RagSearch> ragSearch;
    private final Supplier<String> leader;
    private final Instant editedAt;
    private final Map<String, Reconciles> atEdit;

    /** One pod's reconcile counter: how many, by outcome (valid, invalid, error), and their summed seconds. */
    public record Reconciles(long count, Map<String, Long> byOutcome, double seconds) {
    }

    private OperatorActivity(Supplier<List<Pod>> operatorPods, Supplier<RagSearch> ragSearch, Supplier<String> leader) {
        this.operatorPods = operatorPods;
        this.ragSearch = ragSearch;
        this.leader = leader;
        this.editedAt = Instant.now();
        this.atEdit = reconciles();
    }

    /** The operator's counters now, just before an edit. */
    public static OperatorActivity mark(Supplier<List<Pod>> operatorPods, Supplier<RagSearch> ragSearch, Supplier<String> leader) {
        return new OperatorActivity(operatorPods, ragSearch, leader);
    }

    public Instant editedAt() {
        return editedAt;
    }

    /**
     * Waits for the condition; on a timeout, fails with what it waited for and what the operator
     * did meanwhile. {@code limit} is generous: on a loaded 2-core machine the operator was seen to
     * take more than a minute to answer an edit.
     */
    public <T> T await(String what, Duration limit, Callable<T> supplier, Predicate<? super T> done) {
        try {
            return org.awaitility.Awaitility.await(what).atMost(limit).pollInterval(Duration.ofMillis(250)).until(supplier, done::test);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + ": not within " + limit.toSeconds() + " s of the edit; " + describe(), e);
        }
    }

    /** "no reconcile since the edit" or "N reconciles since the edit", with the RagSearch's own account. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        try {
            RagSearch r = ragSearch.get();
            Long generation = r.getMetadata().getGeneration();
            Long observed = r.getStatus() == null ? null : r.getStatus().observedGeneration;
            Instant statusWritten = lastWrite(r.getMetadata().getManagedFields(), true);
            out.append(String.format(Locale.ROOT, "RagSearch generation %d, status.observedGeneration %s (%s), status last written %s",
                    generation, observed, Objects.equals(generation, observed) ? "the edit was seen" : "the edit NOT seen yet",
                    statusWritten == null ? "never" : relative(statusWritten)));
            if (r.getStatus() != null && r.getStatus().resize != null) {
                var s = r.getStatus().resize;
                out.append(String.format(Locale.ROOT, "; status.resize %s/%s to %d MiB, %s of %s pods resized, refused %s", s.mode, s.reason,
                        s.memoryLimitBytes == null ? -1 : s.memoryLimitBytes >> 20, s.podsResized, s.pods, s.refused));
            }
        } catch (RuntimeException e) {
            out.append("RagSearch unreadable: ").append(e.getMessage());
        }
        Map<String, Reconciles> now = reconciles();
        String lead = leader.get();
        long since = 0;
        for (var e : now.entrySet()) {
            Reconciles before = atEdit.get(e.getKey());
            long more = e.getValue().count() - (before == null ? 0 : before.count());
            since += Math.max(0, more);
            out.append(String.format(Locale.ROOT, "; operator pod %s%s: %d reconciles %s (%d since the edit, %.1f s on average)", e.getKey(),
                    e.getKey().equals(lead) ? " (leader)" : "", e.getValue().count(), e.getValue().byOutcome(), more,
                    e.getValue().count() == 0 ? 0 : e.getValue().seconds() / e.getValue().count()));
        }
        String verdict = now.isEmpty() ? "operator /metrics unreadable" : since == 0 ? "no reconcile since the edit (stuck, or not leading)"
                : since + " reconciles since the edit (slow: the outcome is not there yet)";
        return verdict + "; " + out;
    }

    /** Reconciles by every operator pod since the edit, and their mean seconds ("12 in 0.4 s on average"). */
    public String sinceEdit() {
        long n = 0;
        double seconds = 0;
        for (var e : reconciles().entrySet()) {
            Reconciles before = atEdit.getOrDefault(e.getKey(), new Reconciles(0, Map.of(), 0));
            n += e.getValue().count() - before.count();
            seconds += e.getValue().seconds() - before.seconds();
        }
        return String.format(Locale.ROOT, "%d reconciles (%.2f s on average)", n, n == 0 ? 0 : seconds / n);
    }

    private String relative(Instant at) {
        return at + String.format(Locale.ROOT, " (%+.1f s from the edit)", Duration.between(editedAt, at).toMillis() / 1000.0);
    }

    /** The newest write of the status subresource (or of the rest), from managedFields (second resolution). */
    public static Instant lastWrite(List<ManagedFieldsEntry> fields, boolean status) {
        if (fields == null) {
            return null;
        }
        return fields.stream().filter(f -> status == "status".equals(f.getSubresource())).map(ManagedFieldsEntry::getTime)
                .filter(Objects::nonNull).map(Instant::parse).max(Instant::compareTo).orElse(null);
    }

    /** Each ready operator pod's reconcile counter from its /metrics; a pod that does not answer is left out. */
    private Map<String, Reconciles> reconciles() {
        Map<String, Reconciles> out = new TreeMap<>();
        for (Pod p : operatorPods.get()) {
            String ip = p.getStatus() == null ? null : p.getStatus().getPodIP();
            if (ip == null) {
                continue;
            }
            try {
                out.put(p.getMetadata().getName(), parse(get("http://" + ip + ":" + OPERATOR_METRICS_PORT + "/metrics")));
            } catch (IOException e) {
                // not answering now: said by its absence
            }
        }
        return out;
    }

    public static Reconciles parse(String metrics) {
        long count = 0;
        double seconds = 0;
        Map<String, Long> byOutcome = new TreeMap<>();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("ragsearch_operator_reconciles_total{")) {
                long n = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                count += n;
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("outcome=\"([^\"]*)\"").matcher(line);
                byOutcome.put(m.find() ? m.group(1) : "?", n);
            } else if (line.startsWith("ragsearch_operator_reconcile_seconds_sum ")) {
                seconds = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return new Reconciles(count, byOutcome, seconds);
    }

    /** A gauge or counter without labels from a Prometheus text page; NaN when absent. */
    public static double value(String metrics, String name) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).strip());
            }
        }
        return Double.NaN;
    }

    public static String get(String url) throws IOException {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException(url + " answered " + r.statusCode());
            }
            return r.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
