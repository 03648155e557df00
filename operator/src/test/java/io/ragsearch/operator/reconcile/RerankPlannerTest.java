package io.ragsearch.operator.reconcile;

import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;
import io.ragsearch.operator.spec.SpecCheckTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RerankPlannerTest {
    private static final long MIB = 1024L * 1024;

    @Test
    void theMostConservativePodWinsAndWithinOneKeyTheValueNeverRises() {
        CheckedSpec spec = spec("2000Mi", builtin());
        var a = pod("a", 400, 300);
        var b = pod("b", 420, 380);
        RerankPlanner.Plan first = RerankPlanner.plan(spec, null, List.of(a, b));
        assertEquals("b", first.status().measuredBy);
        assertEquals(3, first.effective().concurrency()); // (1800 − 420) / 380 = 3.6

        // A later, cheaper-looking pod of the same key does not raise it again.
        RerankPlanner.Plan second = RerankPlanner.plan(spec, first.status(), List.of(pod("c", 380, 250)));
        assertEquals("b", second.status().measuredBy);
        assertEquals(3, second.effective().concurrency());
    }

    @Test
    void aNewKeyReusesTheLastMeasurementOfTheSameRerankerUntilNewPodsMeasure() {
        RerankPlanner.Plan measured = RerankPlanner.plan(spec("2000Mi", builtin()), null, List.of(pod("a", 400, 300)));
        CheckedSpec smaller = spec("1200Mi", builtin());
        RerankPlanner.Plan carried = RerankPlanner.plan(smaller, measured.status(), List.of());
        assertEquals(RerankStatus.BASIS_PREVIOUS, carried.status().basis);
        assertEquals(2, carried.effective().concurrency()); // (1080 − 400) / 300
        assertEquals(smaller.calibrationKey(), carried.status().calibrationKey, "the key the spec was checked with");
        assertNotEquals(measured.status().calibrationKey, carried.status().calibrationKey, "another limit, another key");
        // Still waiting on the next reconcile: the basis stays "previous" (same key now, nothing fresh).
        RerankPlanner.Plan again = RerankPlanner.plan(spec("1200Mi", builtin()), carried.status(), List.of());
        assertEquals(RerankStatus.BASIS_PREVIOUS, again.status().basis);
        // New pods measured: their own numbers, not merged with the old key's.
        RerankPlanner.Plan confirmed = RerankPlanner.plan(spec("1200Mi", builtin()), again.status(), List.of(pod("n", 300, 200)));
        assertEquals(RerankStatus.BASIS_MEASURED, confirmed.status().basis);
        assertEquals("n", confirmed.status().measuredBy);
        assertEquals(3, confirmed.effective().concurrency()); // (1080 − 300) / 200 = 3.9
    }

    @Test
    void aMeasurementOfAnotherRerankerIsNeverReused() {
        RerankPlanner.Plan measured = RerankPlanner.plan(spec("2000Mi", builtin()), null, List.of(pod("a", 400, 300)));
        ModelSource other = builtin();
        other.maxSeqLen = 512;
        RerankPlanner.Plan next = RerankPlanner.plan(spec("2000Mi", other), measured.status(), List.of());
        assertEquals(RerankStatus.BASIS_NONE, next.status().basis);
        assertEquals(1, next.effective().concurrency());
        assertNull(next.status().perRunBytes);
    }

    @Test
    void aUrlRerankerOnlyTrustsMeasurementsOfItsOwnDigest() {
        ModelSource url = new ModelSource();
        url.url = "https://models.example/ce.zip";
        url.sha256 = "a".repeat(64);
        CheckedSpec spec = spec("2000Mi", url);
        var wrong = new RerankPlanner.PodMeasurement("x", new MeasuredCost(400 * MIB, 300 * MIB, 1, "rss", "t", null, "x", "sha256:" + "b".repeat(64)));
        assertEquals(RerankStatus.BASIS_NONE, RerankPlanner.plan(spec, null, List.of(wrong)).status().basis);
        var right = new RerankPlanner.PodMeasurement("y", new MeasuredCost(400 * MIB, 300 * MIB, 1, "rss", "t", null, "y", "sha256:" + "a".repeat(64)));
        assertEquals(RerankStatus.BASIS_MEASURED, RerankPlanner.plan(spec, null, List.of(wrong, right)).status().basis);
    }

    @Test
    void implausibleMeasurementsAreRefusedAndListed() {
        CheckedSpec spec = spec("1500Mi", builtin());
        var tiny = new RerankPlanner.PodMeasurement("liar", new MeasuredCost(500 * MIB, 1, 1, "rss", "t", null, "liar", "sha256:s"));
        RerankPlanner.Plan plan = RerankPlanner.plan(spec, null, List.of(tiny));
        assertEquals(RerankStatus.BASIS_NONE, plan.status().basis, "a perRunBytes of 1 is not a measurement");
        assertEquals(1, plan.effective().concurrency());
        assertEquals(List.of("pod liar: perRunBytes 1 is below 1 MiB"), plan.refused());

        var overLimit = new RerankPlanner.PodMeasurement("big", new MeasuredCost(4100 * MIB, 300 * MIB, 1, "cgroup-v2", "t",
                2000 * MIB, "big", "sha256:s"));
        var honest = pod("ok", 400, 300);
        RerankPlanner.Plan mixed = RerankPlanner.plan(spec, null, List.of(overLimit, honest));
        assertEquals(RerankStatus.BASIS_MEASURED, mixed.status().basis);
        assertEquals("ok", mixed.status().measuredBy, "the plausible one is used");
        assertTrue(mixed.refused().get(0).contains("exceeds twice the memory limit"), mixed.refused().toString());

        // Above the limit but not absurdly: the heap the JVM may still commit is counted; that measurement stands.
        var tight = new RerankPlanner.PodMeasurement("tight", new MeasuredCost(450 * MIB, 100 * MIB, 1, "cgroup-v1", "t",
                400 * MIB, "tight", "sha256:s"));
        RerankPlanner.Plan insufficient = RerankPlanner.plan(spec("400Mi", builtin()), null, List.of(tight));
        assertEquals(RerankStatus.BASIS_MEASURED, insufficient.status().basis);
        assertTrue(insufficient.refused().isEmpty(), insufficient.refused().toString());
    }

    @Test
    void withoutRerankerNothingIsMeasuredAndConcurrencyIsOne() {
        RerankPlanner.Plan plan = RerankPlanner.plan(spec("2000Mi", null), null, List.of(pod("a", 400, 300)));
        assertEquals(RerankStatus.BASIS_NONE, plan.status().basis);
        assertEquals(1, plan.effective().concurrency());
    }

    private static RerankPlanner.PodMeasurement pod(String name, long residentMiB, long perRunMiB) {
        return new RerankPlanner.PodMeasurement(name,
                new MeasuredCost(residentMiB * MIB, perRunMiB * MIB, 1, "cgroup-v2", "2026-12-02T19:00:00Z", 2000 * MIB, name, "sha256:s"));
    }

    private static ModelSource builtin() {
        ModelSource m = new ModelSource();
        m.builtin = "minilm-pair";
        return m;
    }

    static CheckedSpec spec(String memory, ModelSource reranker) {
        RagSearch r = SpecCheckTest.valid();
        r.getSpec().resources.memory = memory;
        r.getSpec().resources.cpu = null; // no CPU cap: these cases are about memory
        r.getSpec().models.reranker = reranker;
        return SpecCheck.check(r, null).spec().orElseThrow();
    }
}
