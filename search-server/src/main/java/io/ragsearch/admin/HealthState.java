package io.ragsearch.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * What the probes report. Startup is one-way (loading → started); readiness is started plus
 * every registered dependency check answering (each returns empty when healthy, or a reason).
 */
public final class HealthState {

    private volatile String startupPhase = "starting";
    private volatile boolean started;
    private volatile String startupFailure;
    private final List<Supplier<Optional<String>>> readinessChecks = new CopyOnWriteArrayList<>();
    private final Map<String, Supplier<Optional<Object>>> readinessDetails = new ConcurrentSkipListMap<>();

    public void phase(String phase) {
        this.startupPhase = phase;
    }

    public void markStarted() {
        this.startupPhase = "started";
        this.started = true;
    }

    public void markFailed(String reason) {
        this.startupFailure = reason;
        this.startupPhase = "failed";
    }

    public boolean started() {
        return started;
    }

    public String startupPhase() {
        return startupPhase;
    }

    public Optional<String> startupFailure() {
        return Optional.ofNullable(startupFailure);
    }

    public void addReadinessCheck(Supplier<Optional<String>> check) {
        readinessChecks.add(check);
    }

    /**
     * A field /readyz adds to its 503 answer while {@code detail} gives one (the article
     * embedding's progress: what a person or the operator waiting for readiness wants to see).
     */
    public void addReadinessDetail(String key, Supplier<Optional<Object>> detail) {
        readinessDetails.put(key, detail);
    }

    /** The details that have something to say now, by key. */
    public Map<String, Object> notReadyDetails() {
        Map<String, Object> out = new LinkedHashMap<>();
        readinessDetails.forEach((key, detail) -> detail.get().ifPresent(value -> out.put(key, value)));
        return out;
    }

    /** Empty when ready, otherwise why not. */
    public Optional<String> notReadyReason() {
        if (!started) {
            return Optional.of("starting: " + startupPhase);
        }
        for (Supplier<Optional<String>> check : readinessChecks) {
            Optional<String> reason = check.get();
            if (reason.isPresent()) {
                return reason;
            }
        }
        return Optional.empty();
    }
}
