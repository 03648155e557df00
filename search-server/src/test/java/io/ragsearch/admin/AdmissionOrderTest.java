package io.ragsearch.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Which admin connection goes when the table is past its cap (issue 21 slow clients, issue 32 reconnect flood). */
class AdmissionOrderTest {

    private static final long NOW = 10_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    /** name, opened this long before NOW (ms), requests begun and answered; in opening order. */
    private static Map<String, AdmissionOrder.Slot> table(Object... nameAgeRequests) {
        Map<String, AdmissionOrder.Slot> open = new LinkedHashMap<>();
        for (int i = 0; i < nameAgeRequests.length; i += 3) {
            int requests = (Integer) nameAgeRequests[i + 2];
            open.put((String) nameAgeRequests[i], new AdmissionOrder.Slot(NOW - (Integer) nameAgeRequests[i + 1] * 1_000_000L,
                    new AtomicInteger(requests), new AtomicInteger(requests)));
        }
        return open;
    }

    @Test
    void anAnsweredKeepAliveGoesBeforeAProbeThatHasNotSentItsRequestYet() {
        // The flood: a probe just opened (no request yet), answered idle keep-alives, the newcomer.
        assertEquals("idle-1", AdmissionOrder.toClose(table("probe", 5, 0, "idle-1", 4, 1, "idle-2", 3, 3, "new", 0, 0), "new", NOW, 3, 10));
    }

    @Test
    void aConnectionWhoseAnswerIsBeingWrittenIsNeverClosedForRoom() {
        Map<String, AdmissionOrder.Slot> open = table("slow", 500, 0, "probe", 20, 1, "new", 0, 0);
        open.get("probe").answered().set(0); // its request begun, its answer not yet written
        assertNull(AdmissionOrder.toClose(open, "new", NOW, 2, 10));
        open.get("probe").answered().set(1);
        assertEquals("probe", AdmissionOrder.toClose(open, "new", NOW, 2, 10), "once answered, it is idle and goes first");
    }

    @Test
    void aSilentConnectionGoesOnceItsGraceIsOverNeverTheNewcomer() {
        // The slow clients: none has finished a request head; the oldest is past its second.
        assertEquals("slow-1", AdmissionOrder.toClose(table("slow-1", 1500, 0, "slow-2", 1200, 0, "probe", 0, 0), "probe", NOW, 2, 10));
        assertNull(AdmissionOrder.toClose(table("only", 5000, 0), "only", NOW, 0, 10));
    }

    @Test
    void connectionsInTheirFirstSecondWithoutARequestStayUntilTheHardCap() {
        Map<String, AdmissionOrder.Slot> young = table("a", 900, 0, "probe", 20, 0, "c", 10, 0, "new", 0, 0);
        assertNull(AdmissionOrder.toClose(young, "new", NOW, 2, 4), "past the soft cap only: the table grows");
        assertEquals("a", AdmissionOrder.toClose(young, "new", NOW, 2, 3), "past the hard cap: the oldest goes");
        assertNull(AdmissionOrder.toClose(young, "new", NOW, 4, 8), "within the soft cap nothing goes");
        assertEquals(SECOND, AdmissionOrder.GRACE_NANOS);
    }
}
