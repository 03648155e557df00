package io.ragsearch.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RelevanceGateTest {

    @Test
    void admitsAtAndAboveTheThreshold() {
        RelevanceGate gate = new RelevanceGate(0.5);
        assertTrue(gate.admits(0.5));
        assertFalse(gate.admits(0.4999));
        RelevanceGate.Outcome closed = gate.judge(0.31);
        assertFalse(closed.passed());
        assertEquals(0.31, closed.bestScore());
        assertEquals(0.5, closed.threshold());
    }

    @Test
    void thresholdOutsideTheUnitIntervalIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RelevanceGate(1.5));
        assertThrows(IllegalArgumentException.class, () -> new RelevanceGate(-0.1));
    }
}
