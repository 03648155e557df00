package io.ragsearch.sim.node;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kubelet's probe rules, without a process: thresholds, the startup gate, restarts. */
class ProbeStateTest {
    private static Probe probe(ProbeKind kind, int success, int failure) {
        return new Probe(kind, "/" + kind.label(), 8081, 0, 1, 1, success, failure);
    }

    @Test
    void livenessAndReadinessWaitForTheStartupProbe() {
        ProbeState s = new ProbeState();
        s.reset(true);
        assertTrue(s.runs(ProbeKind.STARTUP));
        assertFalse(s.runs(ProbeKind.READINESS));

        ProbeState.Outcome started = s.record(probe(ProbeKind.STARTUP, 1, 3), true);

        assertTrue(started.changed());
        assertFalse(s.runs(ProbeKind.STARTUP));
        assertTrue(s.runs(ProbeKind.LIVENESS));
        assertTrue(s.runs(ProbeKind.READINESS));
    }

    @Test
    void readyAfterTheSuccessThresholdAndUnreadyAfterTheFailureThreshold() {
        ProbeState s = new ProbeState();
        s.reset(false);
        Probe readiness = probe(ProbeKind.READINESS, 2, 2);

        assertFalse(s.record(readiness, true).changed());
        assertTrue(s.record(readiness, true).changed());
        assertTrue(s.ready());
        assertFalse(s.record(readiness, false).changed());
        assertTrue(s.ready(), "one failure is below the threshold");
        assertTrue(s.record(readiness, false).changed());
        assertFalse(s.ready());
    }

    @Test
    void failedLivenessRestartsTheContainerAndTakesItOutOfTheEndpoints() {
        ProbeState s = new ProbeState();
        s.reset(false);
        s.record(probe(ProbeKind.READINESS, 1, 3), true);
        Probe liveness = probe(ProbeKind.LIVENESS, 1, 2);

        assertNull(s.record(liveness, false).killReason());
        ProbeState.Outcome second = s.record(liveness, false);

        assertEquals("liveness probe failed 2 times (/liveness)", second.killReason());
        assertFalse(s.ready());
    }
}
