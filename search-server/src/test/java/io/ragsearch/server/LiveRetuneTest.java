package io.ragsearch.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.contract.calibration.LiveRerank;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.rerank.RerankLimiter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The re-tune's bookkeeping with a real limiter; the limit comes from a value the test moves. */
class LiveRetuneTest {

    private static final long MIB = 1L << 20;
    private static final Calibration FIELD = Calibration.measured("cgroup-v2", 1500 * MIB, 652 * MIB, 325 * MIB, 3, 32, 256, 1,
            "sha256:x", "2026-12-06T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T12:00:05Z"), ZoneOffset.UTC);

    private final AtomicLong limit = new AtomicLong(1500 * MIB);
    private final AtomicReference<Calibration> calibration = new AtomicReference<>();
    private final Metrics metrics = new Metrics();
    private final RerankLimiter limiter = new RerankLimiter(2, 1_000, metrics);
    private final List<Integer> lane = new ArrayList<>();
    private final LiveRetune live = new LiveRetune(new ServerSettings.Retune(null, false, 10, null),
            () -> limit.get() == 0 ? OptionalLong.empty() : OptionalLong.of(limit.get()), limiter, lane::add, calibration::get,
            metrics, CLOCK);

    @Test
    void nothingMovesBeforeTheCalibrationAndAChangeSeenMeanwhileIsAppliedWhenItArrives() {
        limit.set(2000 * MIB);
        live.poll();
        assertEquals(2, limiter.permits(), "no measurement yet: the operator's starting value holds");
        assertEquals(new LiveRerank(1500 * MIB, LiveRerank.SOURCE_START, 2, 0, true, 0, null), live.snapshot());
        calibration.set(FIELD);
        live.poll();
        assertEquals(3, limiter.permits());
        assertEquals(List.of(3), lane, "the rerank lane grows with the permits");
        assertEquals(new LiveRerank(2000 * MIB, LiveRerank.SOURCE_CGROUP, 3, 0, true, 1, "2026-12-06T12:00:05Z"), live.snapshot());
        assertTrue(metrics.render().contains("ragsearch_rerank_concurrency 3"), metrics.render());
    }

    @Test
    void anAnnouncedDecreaseMovesThePermitsBeforeTheCgroupShrinksAndTheShrinkClearsIt() {
        calibration.set(FIELD);
        var answer = live.announce(1200 * MIB);
        assertEquals(200, answer.status());
        LiveRerank told = CalibrationJson.parseLive(CalibrationJson.write(FIELD, live.snapshot())).orElseThrow();
        assertEquals(1, told.concurrency());
        assertEquals(LiveRerank.SOURCE_ANNOUNCED, told.limitSource());
        assertTrue(answer.json().contains("\"concurrency\":1"), answer.json());
        assertEquals(1, limiter.permits(), "in force for new reranks when the caller hears it");
        limit.set(1200 * MIB);
        live.poll();
        assertEquals(new LiveRerank(1200 * MIB, LiveRerank.SOURCE_CGROUP, 1, 0, true, 1, "2026-12-06T12:00:05Z"), live.snapshot(),
                "the cgroup reached the announced limit: no second move");
        limit.set(2000 * MIB);
        live.poll();
        assertEquals(3, limiter.permits(), "the announcement is gone once the cgroup moved: an increase is used");
    }

    @Test
    void anAnnouncementBeforeTheMeasurementIsRefusedAndChangesNothing() {
        var answer = live.announce(1200 * MIB);
        assertEquals(409, answer.status());
        assertEquals(2, limiter.permits());
        assertNull(live.snapshot().retunedAt());
        assertFalse(answer.json().isEmpty());
    }
}
