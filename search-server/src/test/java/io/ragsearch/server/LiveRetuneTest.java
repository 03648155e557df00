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
    /** The cgroup's CPU limit in millicores; 0: none to read. */
    private final AtomicLong cpu = new AtomicLong(0);
    private final AtomicReference<Calibration> calibration = new AtomicReference<>();
    private final Metrics metrics = new Metrics();
    private final RerankLimiter limiter = new RerankLimiter(2, 1_000, metrics);
    private final List<Integer> lane = new ArrayList<>();
    private final LiveRetune live = retune(null);

    /** A re-tune under the operator's CPU limit {@code operatorCpu} (null: none), reading the limits the test moves. */
    private LiveRetune retune(Integer operatorCpu) {
        return new LiveRetune(new ServerSettings.Retune(null, false, 10, operatorCpu), () -> read(limit), () -> read(cpu), limiter,
                lane::add, calibration::get, metrics, CLOCK);
    }

    private static OptionalLong read(AtomicLong value) {
        return value.get() == 0 ? OptionalLong.empty() : OptionalLong.of(value.get());
    }

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
    void aCpuDecreaseMovesThePermitsDownAndTheIncreaseBackMovesThemUp() {
        cpu.set(2000);
        LiveRetune twoCores = retune(2000);
        calibration.set(FIELD);
        twoCores.poll();
        assertEquals(2, limiter.permits(), "nothing changed since the start: the operator's value holds");
        assertEquals(Long.valueOf(2000), twoCores.snapshot().cpuLimitMillis());
        cpu.set(1000); // an in-place resize to cpu 1 (intraOpThreads 1: one run a core)
        twoCores.poll();
        assertEquals(1, limiter.permits());
        assertEquals(new LiveRerank(1500 * MIB, LiveRerank.SOURCE_START, 1, 0, true, 1, "2026-12-06T12:00:05Z", 1000L),
                twoCores.snapshot(), "the memory limit did not move: its source stays the start");
        assertTrue(metrics.render().contains("ragsearch_cpu_limit_millis 1000"), metrics.render());
        cpu.set(2000);
        twoCores.poll();
        assertEquals(2, limiter.permits());
        assertEquals(List.of(1, 2), lane);
        assertEquals(2, twoCores.snapshot().retunes());
        assertEquals(Long.valueOf(2000), twoCores.snapshot().cpuLimitMillis());
    }

    @Test
    void memoryAndCpuChangingTogetherTakeTheLowerBound() {
        cpu.set(2000);
        LiveRetune twoCores = retune(2000);
        calibration.set(FIELD);
        limit.set(2000 * MIB); // three runs by memory
        cpu.set(1000); // one by CPU
        twoCores.poll();
        assertEquals(1, limiter.permits());
        cpu.set(3000);
        twoCores.poll();
        assertEquals(3, limiter.permits(), "three by memory, three by CPU");
        limit.set(1200 * MIB); // one by memory
        cpu.set(4000);
        twoCores.poll();
        assertEquals(1, limiter.permits());
        assertEquals(new LiveRerank(1200 * MIB, LiveRerank.SOURCE_CGROUP, 1, 0, true, 3, "2026-12-06T12:00:05Z", 4000L),
                twoCores.snapshot());
    }

    @Test
    void withoutACgroupCpuLimitTheOperatorsHoldsAndALiftedLimitIsNone() {
        LiveRetune unread = retune(2000);
        calibration.set(FIELD);
        limit.set(2000 * MIB);
        unread.poll();
        assertEquals(2, limiter.permits(), "three by memory, but two by the operator's CPU limit");
        assertEquals(Long.valueOf(2000), unread.snapshot().cpuLimitMillis());

        cpu.set(2000);
        LiveRetune lifted = retune(2000);
        cpu.set(0); // the limit removed: cpu.max says "max"
        lifted.poll();
        assertEquals(3, limiter.permits(), "no CPU limit any more: memory bounds it");
        assertNull(lifted.snapshot().cpuLimitMillis());
        assertTrue(metrics.render().contains("ragsearch_cpu_limit_millis 0"), metrics.render());
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
