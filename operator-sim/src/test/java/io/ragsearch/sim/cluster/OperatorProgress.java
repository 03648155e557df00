package io.ragsearch.sim.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits on something the operator must do, and when the wait times out says whether the operator
 * was slow (it kept reconciling: how many reconciles in the wait, the last one how long before the
 * end) or stuck (none since the wait began). It counts reconciles from the operator pods' own
 * {@code /metrics} ({@code ragsearch_operator_reconciles_total}, every outcome), read on each poll
 * from each pod of the operator's Deployment at its health port; a pod that restarts starts its
 * counter again, so only increases per pod count. On a busy machine an operator that is merely
 * slow still converges: the verdict tells a timeout worth a longer wait from a bug.
 */
public final class OperatorProgress {
    private static final Duration POLL = Duration.ofMillis(500);

    private final Supplier<Sample> readings;
    private final Duration poll;

    /** Readings from {@code readings}, one per poll of {@code poll}. */
    public OperatorProgress(Supplier<Sample> readings, Duration poll) {
        this.readings = readings;
        this.poll = poll;
    }

    /** The operator Deployment {@code deployment} in {@code namespace} (e.g. the chart's release full name), read over /metrics. */
    public static OperatorProgress of(KubernetesClient admin, String namespace, String deployment) {
        return new OperatorProgress(() -> read(admin, namespace, deployment), POLL);
    }

    /** One reading: when, and each operator pod's reconcile count (pod name → count; absent: no answer). */
    public record Sample(Instant at, Map<String, Long> reconciles) {
    }

    /**
     * Polls {@code probe} until {@code done} accepts its value, reading the operator's counters on
     * each poll; after {@code timeout}, fails with what was awaited, the last value and the verdict.
     * {@code state} adds what else the message should say (e.g. a RagSearch's generation and
     * observedGeneration); it may be null.
     */
    public <T> T await(String what, Duration timeout, Callable<T> probe, Predicate<T> done, Supplier<String> state) {
        return await(what, timeout, timeout, probe, done, state);
    }

    /**
     * As {@link #await(String, Duration, Callable, Predicate, Supplier)}, but an operator that keeps
     * reconciling is waited on past {@code quiet}, up to {@code limit}: it fails once no reconcile has
     * been counted for {@code quiet} (since the wait began, or since the last one: stuck), or at
     * {@code limit} however busy the operator was (slow beyond what the test allows).
     */
    public <T> T await(String what, Duration quiet, Duration limit, Callable<T> probe, Predicate<T> done, Supplier<String> state) {
        List<Sample> samples = new ArrayList<>();
        Instant start = Instant.now();
        Instant lastReconcile = start;
        T last = null;
        Exception lastError = null;
        while (true) {
            Sample now = sample();
            if (!samples.isEmpty() && increase(samples.get(samples.size() - 1), now) > 0) {
                lastReconcile = now.at();
            }
            samples.add(now);
            try {
                last = probe.call();
                lastError = null;
                if (done.test(last)) {
                    return last;
                }
            } catch (Exception e) {
                lastError = e;
            }
            Instant t = Instant.now();
            boolean quietTooLong = !t.isBefore(lastReconcile.plus(quiet));
            if (quietTooLong || !t.isBefore(start.plus(limit))) {
                String extra = state == null ? "" : "; " + state.get();
                throw new AssertionError(what + ": not within " + String.format(java.util.Locale.ROOT, "%.1f", Duration.between(start, t).toMillis() / 1000.0)
                        + " s (last value: "
                        + (lastError != null ? "error " + lastError : String.valueOf(last)) + extra + "). " + verdict(samples, t));
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }

    /** Each operator pod's reconcile count now (pods whose /metrics did not answer are left out). */
    public Sample sample() {
        return readings.get();
    }

    private static Sample read(KubernetesClient admin, String namespace, String deployment) {
        Map<String, Long> counts = new TreeMap<>();
        for (Pod p : pods(admin, namespace, deployment)) {
            String ip = p.getStatus() == null ? null : p.getStatus().getPodIP();
            if (ip == null) {
                continue;
            }
            try {
                String url = "http://" + ip + ":" + OperatorActivity.OPERATOR_METRICS_PORT + "/metrics";
                counts.put(p.getMetadata().getName(), reconciles(OperatorActivity.get(url)));
            } catch (java.io.IOException e) {
                // a pod starting or stopping: no reading from it this time
            }
        }
        return new Sample(Instant.now(), counts);
    }

    private static List<Pod> pods(KubernetesClient admin, String namespace, String deployment) {
        Deployment d = admin.apps().deployments().inNamespace(namespace).withName(deployment).get();
        if (d == null) {
            return List.of();
        }
        return admin.pods().inNamespace(namespace).withLabels(d.getSpec().getSelector().getMatchLabels()).list().getItems();
    }

    /** The sum of the reconcile counter over its outcomes in a Prometheus text exposition. */
    public static long reconciles(String exposition) {
        return OperatorActivity.parse(exposition).count();
    }

    /**
     * Reconciles counted between two readings: each pod's increase; a pod first seen in {@code after}
     * has no baseline yet (0), a lower count is a restarted process (its whole count).
     */
    public static long increase(Sample before, Sample after) {
        long sum = 0;
        for (var e : after.reconciles().entrySet()) {
            Long was = before.reconciles().get(e.getKey());
            if (was != null) {
                sum += e.getValue() >= was ? e.getValue() - was : e.getValue();
            }
        }
        return sum;
    }

    /**
     * Slow or stuck, from the readings of one wait: the reconciles counted in it (increases of each
     * pod's counter between its readings) and when the last increase was seen, or that there was none.
     */
    public static String verdict(List<Sample> samples, Instant end) {
        long during = 0;
        Instant lastSeen = null;
        for (int i = 1; i < samples.size(); i++) {
            long increase = increase(samples.get(i - 1), samples.get(i));
            if (increase > 0) {
                during += increase;
                lastSeen = samples.get(i).at();
            }
        }
        String pods = samples.isEmpty() ? "{}" : samples.get(samples.size() - 1).reconciles().toString();
        if (samples.stream().allMatch(s -> s.reconciles().isEmpty())) {
            return "The operator cannot be judged: no operator pod answered /metrics in the wait (none running or ready?).";
        }
        if (during == 0) {
            return "The operator looks stuck: no reconcile counted since the wait began (reconciles per pod at the end: " + pods + ").";
        }
        return String.format(java.util.Locale.ROOT, "The operator was slow, not stuck: %d reconcile(s) in the wait, the last seen %.1f s "
                + "before the end (reconciles per pod at the end: %s).", during, Duration.between(lastSeen, end).toMillis() / 1000.0, pods);
    }
}
