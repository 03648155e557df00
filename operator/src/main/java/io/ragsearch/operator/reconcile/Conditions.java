package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The status conditions, with lastTransitionTime kept while a condition's status does not change. */
public final class Conditions {
    public static final String READY = "Ready";
    public static final String CALIBRATED = "Calibrated";
    public static final String MEMORY_INSUFFICIENT = "MemoryInsufficient";
    public static final String CONCURRENCY_CLAMPED = "ConcurrencyClamped";
    public static final String INVALID_SPEC = "InvalidSpec";
    /** Whether the pods' corpus database answers (only with spec.database); pods stay ready either way. */
    public static final String DATABASE_REACHABLE = "DatabaseReachable";
    /** Whether the spec's version serves after passing its checks (only with spec.verification). */
    public static final String VERIFIED = "Verified";
    /**
     * True while the last reconcile failed with an unexpected exception (the API server refused a write, say): what
     * failed and that it is retried. Removed by the next reconcile that goes through.
     */
    public static final String RECONCILE_FAILED = "ReconcileFailed";

    private final List<Condition> conditions;
    private final long generation;
    private final String now;

    public Conditions(List<Condition> previous, long generation, Instant now) {
        this.conditions = previous == null ? new ArrayList<>() : new ArrayList<>(previous);
        this.generation = generation;
        this.now = now.toString();
    }

    /** The standard condition schema's bound on a message (the CRD enforces it). */
    static final int MAX_MESSAGE = 32768;

    public void set(String type, boolean status, String reason, String message) {
        String value = status ? "True" : "False";
        // Required by the condition schema: never absent, never longer than its bound.
        message = message == null ? "" : message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE - 1) + "…" : message;
        Optional<Condition> old = find(conditions, type);
        String since = old.filter(c -> value.equals(c.getStatus())).map(Condition::getLastTransitionTime).orElse(now);
        conditions.removeIf(c -> type.equals(c.getType()));
        conditions.add(new ConditionBuilder().withType(type).withStatus(value).withReason(reason).withMessage(message)
                .withObservedGeneration(generation).withLastTransitionTime(since).build());
        conditions.sort(java.util.Comparator.comparingInt(c -> order(c.getType())));
    }

    public void remove(String type) {
        conditions.removeIf(c -> type.equals(c.getType()));
    }

    public List<Condition> list() {
        return List.copyOf(conditions);
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }

    private static int order(String type) {
        int i = List.of(READY, CALIBRATED, MEMORY_INSUFFICIENT, CONCURRENCY_CLAMPED, INVALID_SPEC, DATABASE_REACHABLE, VERIFIED,
                RECONCILE_FAILED).indexOf(type);
        return i < 0 ? Integer.MAX_VALUE : i;
    }
}
