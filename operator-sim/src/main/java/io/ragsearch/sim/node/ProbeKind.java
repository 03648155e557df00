package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Container;

/** The kubelet's three probes: startup runs until it first succeeds, then liveness and readiness take over. */
enum ProbeKind {
    STARTUP, LIVENESS, READINESS;

    /** The container's declaration of this probe, or null. */
    io.fabric8.kubernetes.api.model.Probe declared(Container c) {
        return switch (this) {
            case STARTUP -> c.getStartupProbe();
            case LIVENESS -> c.getLivenessProbe();
            case READINESS -> c.getReadinessProbe();
        };
    }

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
