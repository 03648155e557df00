package io.ragsearch.sim.node;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When the node agent asks again for a projected token: as the kubelet, past 80 % of its lifetime or a day old. */
class ProjectedTokensTest {

    private static final Instant ISSUED = Instant.parse("2026-12-06T12:00:00Z");

    @Test
    void aTenMinuteTokenIsRenewedAfterEightMinutesNotBefore() {
        Instant expires = ISSUED.plusSeconds(600);
        assertFalse(ProjectedTokens.due(ISSUED, expires, ISSUED));
        assertFalse(ProjectedTokens.due(ISSUED, expires, ISSUED.plusSeconds(479)));
        assertTrue(ProjectedTokens.due(ISSUED, expires, ISSUED.plusSeconds(480)));
        assertTrue(ProjectedTokens.due(ISSUED, expires, expires.plusSeconds(1)), "an expired one all the more");
    }

    @Test
    void theKubeletsDefaultHourIsRenewedAtFortyEightMinutes() {
        Instant expires = ISSUED.plusSeconds(ProjectedTokens.DEFAULT_EXPIRATION_SECONDS);
        assertFalse(ProjectedTokens.due(ISSUED, expires, ISSUED.plus(Duration.ofMinutes(48))));
        assertTrue(ProjectedTokens.due(ISSUED, expires, ISSUED.plus(Duration.ofMinutes(48)).plusSeconds(10)));
    }

    @Test
    void aLongLivedTokenIsRenewedOnceADayOld() {
        Instant expires = ISSUED.plus(Duration.ofDays(7));
        assertFalse(ProjectedTokens.due(ISSUED, expires, ISSUED.plus(Duration.ofHours(23))));
        assertTrue(ProjectedTokens.due(ISSUED, expires, ISSUED.plus(Duration.ofHours(24))));
    }
}
