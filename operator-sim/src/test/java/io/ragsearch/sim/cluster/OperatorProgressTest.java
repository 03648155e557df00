package io.ragsearch.sim.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The slow-or-stuck verdict of a timed-out wait on the operator, from its pods' reconcile counters. */
class OperatorProgressTest {
    private static final Instant T0 = Instant.parse("2026-12-06T15:00:00Z");

    @Test
    void reconcilesDuringTheWaitMeanSlowWithTheirCountAndTheLastOne() {
        String v = OperatorProgress.verdict(List.of(
                new OperatorProgress.Sample(T0, Map.of("op-a", 10L, "op-b", 0L)),
                new OperatorProgress.Sample(T0.plusSeconds(20), Map.of("op-a", 12L, "op-b", 0L)),
                new OperatorProgress.Sample(T0.plusSeconds(40), Map.of("op-a", 13L, "op-b", 0L)),
                new OperatorProgress.Sample(T0.plusSeconds(60), Map.of("op-a", 13L, "op-b", 0L))), T0.plusSeconds(60));
        assertTrue(v.startsWith("The operator was slow, not stuck: 3 reconcile(s) in the wait, the last seen 20.0 s before the end"), v);
    }

    @Test
    void noReconcileSinceTheWaitBeganIsStuckWhateverTheCountsBefore() {
        String v = OperatorProgress.verdict(List.of(
                new OperatorProgress.Sample(T0, Map.of("op-a", 40L)),
                new OperatorProgress.Sample(T0.plusSeconds(60), Map.of("op-a", 40L))), T0.plusSeconds(60));
        assertTrue(v.startsWith("The operator looks stuck: no reconcile counted since the wait began"), v);
        assertTrue(v.contains("op-a=40"), v);
    }

    @Test
    void aRestartedPodsNewCountIsCountedAndANewPodStartsFromItsFirstReading() {
        String v = OperatorProgress.verdict(List.of(
                new OperatorProgress.Sample(T0, Map.of("op-a", 40L)),
                new OperatorProgress.Sample(T0.plusSeconds(10), Map.of("op-a", 2L, "op-c", 7L)),
                new OperatorProgress.Sample(T0.plusSeconds(30), Map.of("op-a", 2L, "op-c", 7L))), T0.plusSeconds(30));
        assertTrue(v.startsWith("The operator was slow, not stuck: 2 reconcile(s) in the wait, the last seen 20.0 s"), v);
    }

    @Test
    void noAnsweringPodIsSaidAsSuch() {
        String v = OperatorProgress.verdict(List.of(new OperatorProgress.Sample(T0, Map.of())), T0.plusSeconds(5));
        assertTrue(v.contains("no operator pod answered /metrics"), v);
    }

    @Test
    void theCounterIsSummedOverItsOutcomesAndOtherSeriesIgnored() {
        String exposition = """
                # HELP ragsearch_operator_reconciles_total Reconciles by outcome (valid, invalid spec, error)
                # TYPE ragsearch_operator_reconciles_total counter
                ragsearch_operator_reconciles_total{outcome="error"} 1
                ragsearch_operator_reconciles_total{outcome="valid"} 41
                ragsearch_operator_reconcile_seconds_count 42
                """;
        assertEquals(42, OperatorProgress.reconciles(exposition));
        assertEquals(0, OperatorProgress.reconciles("# nothing yet\n"));
    }

    /** Readings of one operator pod whose count grows by {@code step} on each reading. */
    private static OperatorProgress counting(AtomicLong count, long step) {
        return new OperatorProgress(() -> new OperatorProgress.Sample(Instant.now(), Map.of("op-a", count.addAndGet(step))), Duration.ofMillis(10));
    }

    @Test
    void aBusyOperatorIsWaitedOnPastTheQuietTimeUntilItConverges() {
        AtomicLong count = new AtomicLong();
        OperatorProgress busy = counting(count, 1);
        long polls = busy.await("done after 60 readings", Duration.ofMillis(150), Duration.ofSeconds(30),
                count::get, n -> n >= 60, null);
        assertTrue(polls >= 60, "waited past 150 ms of quiet while reconciles kept coming: " + polls);
    }

    @Test
    void anOperatorThatCountsNoReconcileFailsAfterTheQuietTimeAndSaysStuck() {
        AtomicLong count = new AtomicLong(7);
        AssertionError e = assertThrows(AssertionError.class, () -> counting(count, 0).await("the hash changes", Duration.ofMillis(150),
                Duration.ofSeconds(30), () -> "same", h -> !h.equals("same"), () -> "generation 5, observedGeneration 4"));
        assertTrue(e.getMessage().startsWith("the hash changes: not within 0."), e.getMessage());
        assertTrue(e.getMessage().contains(" s (last value: same; generation 5, observedGeneration 4). The operator looks stuck"), e.getMessage());
    }

    @Test
    void aBusyOperatorStillFailsAtTheLimitAndSaysSlow() {
        AtomicLong count = new AtomicLong();
        AssertionError e = assertThrows(AssertionError.class, () -> counting(count, 1).await("never", Duration.ofMillis(100),
                Duration.ofMillis(400), () -> false, done -> done, null));
        assertTrue(e.getMessage().contains("The operator was slow, not stuck"), e.getMessage());
    }
}
