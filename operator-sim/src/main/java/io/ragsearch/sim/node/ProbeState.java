package io.ragsearch.sim.node;

import java.util.EnumMap;
import java.util.Map;

/**
 * The kubelet's bookkeeping for one container run: consecutive successes and failures per probe,
 * whether the container has started and is ready, and when a probe's failures mean a restart.
 * Not thread-safe: its pod calls it under its own lock.
 */
final class ProbeState {
    /** What one probe result changed: the pod's status, and a reason to restart the container (or null). */
    record Outcome(boolean changed, String killReason) {
    }

    private final Map<ProbeKind, Integer> failures = new EnumMap<>(ProbeKind.class);
    private final Map<ProbeKind, Integer> successes = new EnumMap<>(ProbeKind.class);
    private boolean started;
    private boolean ready;

    /** A new container run: nothing probed yet; started at once when there is no startup probe. */
    void reset(boolean hasStartupProbe) {
        failures.clear();
        successes.clear();
        started = !hasStartupProbe;
        ready = false;
    }

    /** Liveness and readiness run once the startup probe has succeeded; startup stops then. */
    boolean runs(ProbeKind kind) {
        return (kind == ProbeKind.STARTUP) != started;
    }

    Outcome record(Probe p, boolean ok) {
        ProbeKind kind = p.kind();
        int failed = ok ? 0 : failures.getOrDefault(kind, 0) + 1;
        int succeeded = ok ? successes.getOrDefault(kind, 0) + 1 : 0;
        failures.put(kind, failed);
        successes.put(kind, succeeded);
        switch (kind) {
            case STARTUP -> {
                if (ok) {
                    started = true;
                    return new Outcome(true, null);
                }
                return failed >= p.failureThreshold() ? kill(p, failed) : new Outcome(false, null);
            }
            case LIVENESS -> {
                return failed >= p.failureThreshold() ? kill(p, failed) : new Outcome(false, null);
            }
            default -> {
                if (ok && !ready && succeeded >= p.successThreshold()) {
                    ready = true;
                    return new Outcome(true, null);
                }
                if (!ok && ready && failed >= p.failureThreshold()) {
                    ready = false;
                    return new Outcome(true, null);
                }
                return new Outcome(false, null);
            }
        }
    }

    private Outcome kill(Probe p, int failed) {
        ready = false;
        return new Outcome(false, p.kind().label() + " probe failed " + failed + " times (" + p.path() + ")");
    }

    /** The container stopped: neither started nor ready until the next run. */
    void stopped() {
        started = false;
        ready = false;
    }

    /** Out of the endpoints at once (pod deletion). */
    void unready() {
        ready = false;
    }

    boolean started() {
        return started;
    }

    boolean ready() {
        return ready;
    }
}
