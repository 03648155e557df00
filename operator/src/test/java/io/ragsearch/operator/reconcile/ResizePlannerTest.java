package io.ragsearch.operator.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.calibration.LiveRerank;
import org.junit.jupiter.api.Test;

/** Resize in place or roll, and each pod's next step: every exit of the two decisions. */
class ResizePlannerTest {

    private static final long MIB = 1L << 20;
    private static final ResizePlanner.Limits L1500 = new ResizePlanner.Limits(1500 * MIB, 2000L);
    private static final ResizePlanner.Limits L1200 = new ResizePlanner.Limits(1200 * MIB, 2000L);
    private static final ResizePlanner.Limits L2000 = new ResizePlanner.Limits(2000 * MIB, 2000L);
    private static final ResizePlanner.Limits L400 = new ResizePlanner.Limits(400 * MIB, 2000L);
    private static final ResizePlanner.Support V137 = new ResizePlanner.Support(true, "Kubernetes v1.37.2");
    private static final ResizePlanner.Support V130 = new ResizePlanner.Support(false, "Kubernetes v1.30.0");

    /** The serving pod at the field's numbers: 652 MiB resident, 325 MiB a run. */
    private static ResizePlanner.Inputs inputs(ResizePlanner.Limits spec, ResizePlanner.Limits template, boolean onlyLimits,
                                               ResizePlanner.Support support, String refused) {
        return new ResizePlanner.Inputs(spec, template, onlyLimits, support, refused, 652 * MIB, 325 * MIB, 10, true, false);
    }

    @Test
    void aMemoryOnlyChangeOnAClusterThatResizesIsInPlaceBothWays() {
        ResizePlanner.Decision down = ResizePlanner.decide(inputs(L1200, L1500, true, V137, null));
        assertEquals(ResizePlanner.Mode.IN_PLACE, down.mode());
        assertEquals(ResizePlanner.REASON_IN_PLACE, down.reason());
        assertTrue(down.message().contains("1500 MiB") && down.message().contains("1200 MiB"), down.message());
        assertEquals(ResizePlanner.Mode.IN_PLACE, ResizePlanner.decide(inputs(L2000, L1500, true, V137, null)).mode());
        assertEquals(ResizePlanner.Mode.IN_PLACE, ResizePlanner.decide(inputs(L1500, L1200, true, V137, null)).mode(),
                "back towards the template's limits while they differ");
    }

    @Test
    void aCpuOnlyChangeIsInPlaceAndEachPodIsPatchedAtOnceBothWays() {
        ResizePlanner.Limits oneCore = new ResizePlanner.Limits(1500 * MIB, 1000L);
        ResizePlanner.Decision down = ResizePlanner.decide(inputs(oneCore, L1500, true, V137, null));
        assertEquals(ResizePlanner.Mode.IN_PLACE, down.mode());
        assertTrue(down.message().contains("cpu 2000m → memory 1500 MiB, cpu 1000m"), down.message());
        assertEquals(ResizePlanner.Mode.IN_PLACE, ResizePlanner.decide(inputs(L1500, oneCore, true, V137, null)).mode());
        // A lower quota only slows the runs (no OOM kill to get ahead of): no announcement, patched at once.
        assertEquals(ResizePlanner.Step.PATCH, ResizePlanner.podStep(L1500, oneCore, null, true));
        assertEquals(ResizePlanner.Step.PATCH, ResizePlanner.podStep(oneCore, L1500, null, false));
        assertEquals(ResizePlanner.Step.DONE, ResizePlanner.podStep(oneCore, oneCore, null, true));
    }

    @Test
    void aPodCountsAsRetunedToANewCpuLimitOnlyOnceTheKubeletAndItsServerSayIt() {
        ResizePlanner.Limits oneCore = new ResizePlanner.Limits(1500 * MIB, 1000L);
        LiveRerank stillTwo = new LiveRerank(1500 * MIB, LiveRerank.SOURCE_START, 2, 0, true, 0, null, 2000L);
        LiveRerank nowOne = new LiveRerank(1500 * MIB, LiveRerank.SOURCE_START, 1, 0, true, 1, "2026-12-06T12:00:03Z", 1000L);
        assertTrue(!InPlaceResize.retunedToCpu(stillTwo, oneCore), "the memory limit is the same: the CPU says it has not re-tuned yet");
        assertTrue(InPlaceResize.retunedToCpu(nowOne, oneCore));
        assertTrue(InPlaceResize.retunedToCpu(new LiveRerank(1500 * MIB, LiveRerank.SOURCE_START, 2, 0, true, 0, null), oneCore),
                "a server before live.cpuLimitMillis: its memory limit's word, as before");
        assertTrue(!InPlaceResize.retunedToCpu(stillTwo, new ResizePlanner.Limits(1500 * MIB, null)), "a lifted limit: none in force yet");

        io.fabric8.kubernetes.api.model.Pod pod = new io.fabric8.kubernetes.api.model.PodBuilder().withNewStatus()
                .addNewContainerStatus().withName(io.ragsearch.operator.naming.PodLayout.SERVER_CONTAINER).withNewResources()
                .addToLimits("memory", new io.fabric8.kubernetes.api.model.Quantity("1500Mi"))
                .addToLimits("cpu", new io.fabric8.kubernetes.api.model.Quantity("2")).endResources().endContainerStatus()
                .endStatus().build();
        assertTrue(InPlaceResize.applied(pod, L1500));
        assertTrue(!InPlaceResize.applied(pod, oneCore), "the kubelet still reports cpu 2");
        pod.getStatus().getContainerStatuses().get(0).getResources().getLimits().put("cpu", new io.fabric8.kubernetes.api.model.Quantity("1000m"));
        assertTrue(InPlaceResize.applied(pod, oneCore));
    }

    @Test
    void aCpuOnlyChangeIsANewTargetInTheStatus() {
        var twoCores = InPlaceResize.statusOf(null, ResizePlanner.decide(inputs(L2000, L1500, true, V137, null)), 2000 * MIB, 2000L,
                1500 * MIB, new InPlaceResize.Progress(2, 2, 3, java.time.Instant.parse("2026-12-06T12:00:02Z"), null, false),
                java.time.Instant.parse("2026-12-06T12:00:00Z"));
        assertEquals(2000L, twoCores.cpuLimitMillis);
        ResizePlanner.Limits oneCore = new ResizePlanner.Limits(2000 * MIB, 1000L);
        var pending = InPlaceResize.statusOf(twoCores, ResizePlanner.decide(inputs(oneCore, L1500, true, V137, null)), 2000 * MIB, 1000L,
                1500 * MIB, new InPlaceResize.Progress(2, 0, null, null, null, true), java.time.Instant.parse("2026-12-06T12:01:00Z"));
        assertEquals(1000L, pending.cpuLimitMillis);
        assertEquals("2026-12-06T12:01:00Z", pending.requestedAt, "asked for anew: the memory is the same, the CPU is not");
        assertEquals(null, pending.retunedAt);
        assertTrue(InPlaceResize.sameTarget(pending, 2000 * MIB, 1000L));
        assertTrue(!InPlaceResize.sameTarget(pending, 2000 * MIB, 2000L));
        var done = InPlaceResize.statusOf(pending, ResizePlanner.decide(inputs(oneCore, L1500, true, V137, null)), 2000 * MIB, 1000L,
                1500 * MIB, new InPlaceResize.Progress(2, 2, 1, java.time.Instant.parse("2026-12-06T12:01:02Z"), null, false),
                java.time.Instant.parse("2026-12-06T12:01:05Z"));
        assertEquals(2.0, done.secondsToRetune);
        assertEquals(1, InPlaceResize.running(done, 3), "the pods run the bound of the lower CPU limit");
    }

    @Test
    void sameLimitsOrNoDeploymentDecideNothing() {
        assertEquals(ResizePlanner.Mode.UNCHANGED, ResizePlanner.decide(inputs(L1500, L1500, false, V137, null)).mode());
        assertEquals(ResizePlanner.Mode.UNCHANGED, ResizePlanner.decide(inputs(L1500, null, false, V130, null)).mode());
    }

    @Test
    void everyReasonToRollIsNamed() {
        ResizePlanner.Decision other = ResizePlanner.decide(inputs(L1200, L1500, false, V137, null));
        assertEquals(ResizePlanner.REASON_OTHER_CHANGES, other.reason());
        ResizePlanner.Decision old = ResizePlanner.decide(inputs(L1200, L1500, true, V130, null));
        assertEquals(ResizePlanner.Mode.ROLL, old.mode());
        assertEquals(ResizePlanner.REASON_UNSUPPORTED, old.reason());
        assertTrue(old.message().contains("v1.30.0") && old.message().contains("1.35"), old.message());
        ResizePlanner.Decision refused = ResizePlanner.decide(inputs(L2000, L1500, true, V137, "422: forbidden"));
        assertEquals(ResizePlanner.REASON_REFUSED, refused.reason());
        assertTrue(refused.message().contains("422: forbidden"), refused.message());
        ResizePlanner.Decision below = ResizePlanner.decide(inputs(L400, L1500, true, V137, null));
        assertEquals(ResizePlanner.Mode.ROLL, below.mode());
        assertEquals(ResizePlanner.REASON_BELOW_USE, below.reason());
        assertTrue(below.message().contains("652 MiB"), below.message());
    }

    @Test
    void aRolloutUnderWayRollsLimitsBackAtTheTemplatesResizeItsPodsInPlace() {
        // A refused resize rolled to limits no node holds: its new pod never runs, the old ones serve on.
        ResizePlanner.Decision stuck = ResizePlanner.decide(new ResizePlanner.Inputs(L1500, L2000, true, V137, null, 652 * MIB,
                325 * MIB, 10, false, false));
        assertEquals(ResizePlanner.Mode.ROLL, stuck.mode(), "there are no running pods of the template to resize");
        assertEquals(ResizePlanner.REASON_ROLLOUT, stuck.reason());
        assertTrue(stuck.message().contains("rollout has not finished"), stuck.message());
        // The template back at the running pods' (the Deployment returns to their ReplicaSet), which run at other limits.
        ResizePlanner.Decision back = ResizePlanner.decide(new ResizePlanner.Inputs(L1500, L1500, false, V137, null, 652 * MIB,
                325 * MIB, 10, true, true));
        assertEquals(ResizePlanner.Mode.IN_PLACE, back.mode());
        assertEquals(ResizePlanner.REASON_IN_PLACE, back.reason());
        assertTrue(back.message().contains("back to the pod template's"), back.message());
    }

    @Test
    void aDecreaseWithoutAMeasurementIsInPlaceTheServerIsToldFirstAnyway() {
        assertEquals(ResizePlanner.Mode.IN_PLACE, ResizePlanner.decide(new ResizePlanner.Inputs(L400, L1500, true, V137, null,
                null, null, 10, true, false)).mode());
    }

    @Test
    void anIncreaseIsPatchedAtOnceADecreaseOnlyOnceItsPermitsAreInForce() {
        LiveRerank at1500 = new LiveRerank(1500 * MIB, LiveRerank.SOURCE_START, 2, 2, true, 0, null);
        assertEquals(ResizePlanner.Step.DONE, ResizePlanner.podStep(L1500, L1500, at1500, true));
        assertEquals(ResizePlanner.Step.PATCH, ResizePlanner.podStep(L1500, L2000, at1500, true));
        assertEquals(ResizePlanner.Step.PATCH, ResizePlanner.podStep(L1500, L2000, null, false), "an increase needs no server");
        assertEquals(ResizePlanner.Step.ANNOUNCE, ResizePlanner.podStep(L1500, L1200, at1500, true));
        LiveRerank announcedBusy = new LiveRerank(1200 * MIB, LiveRerank.SOURCE_ANNOUNCED, 1, 2, false, 1, "t");
        assertEquals(ResizePlanner.Step.WAIT, ResizePlanner.podStep(L1500, L1200, announcedBusy, true));
        LiveRerank announced = new LiveRerank(1200 * MIB, LiveRerank.SOURCE_ANNOUNCED, 1, 1, true, 1, "t");
        assertEquals(ResizePlanner.Step.PATCH, ResizePlanner.podStep(L1500, L1200, announced, true));
        assertEquals(ResizePlanner.Step.NOT_YET, ResizePlanner.podStep(L1500, L1200, null, true), "no live block: cannot be told");
        assertEquals(ResizePlanner.Step.NOT_YET, ResizePlanner.podStep(L1500, L1200, at1500, false));
    }

    @Test
    void aRefusalOutlivesTheRollItCausesUntilTheLimitsChange() {
        io.ragsearch.operator.model.ResizeStatus inPlace = new io.ragsearch.operator.model.ResizeStatus();
        inPlace.mode = "InPlace";
        inPlace.memoryLimitBytes = 1200 * MIB;
        inPlace.requestedAt = "2026-12-06T12:00:00Z";
        ResizePlanner.Decision roll = ResizePlanner.decide(inputs(L1200, L1500, true, V137, "403: forbidden"));
        var refusedNow = new InPlaceResize.Progress(1, 0, null, null, "403: forbidden", true);
        var s1 = InPlaceResize.statusOf(inPlace, ResizePlanner.decide(inputs(L1200, L1500, true, V137, null)), 1200 * MIB, 1500 * MIB,
                refusedNow, java.time.Instant.parse("2026-12-06T12:00:09Z"));
        assertEquals("403: forbidden", s1.refused);
        assertEquals("2026-12-06T12:00:00Z", s1.requestedAt, "the same target keeps when it was asked for");
        var s2 = InPlaceResize.statusOf(s1, roll, 1200 * MIB, 1500 * MIB, null, java.time.Instant.parse("2026-12-06T12:00:19Z"));
        assertEquals("Roll", s2.mode);
        assertEquals("403: forbidden", s2.refused, "kept: the next decision is a roll again, not another resize");
        var s3 = InPlaceResize.statusOf(s2, ResizePlanner.decide(inputs(L2000, L1500, true, V137, null)), 2000 * MIB, 1500 * MIB,
                null, java.time.Instant.parse("2026-12-06T12:01:00Z"));
        assertEquals(null, s3.refused, "new limits are tried in place again");
        assertEquals("2026-12-06T12:01:00Z", s3.requestedAt);
    }

    @Test
    void anInPlaceResizeBackToTheTemplateIsSeenThroughUntilItsRetuneIsRecorded() {
        var pending = InPlaceResize.statusOf(null, ResizePlanner.decide(new ResizePlanner.Inputs(L1500, L1500, false, V137, null,
                652 * MIB, 325 * MIB, 10, true, true)), 1500 * MIB, 1500 * MIB, new InPlaceResize.Progress(2, 0, null, null, null, true),
                java.time.Instant.parse("2026-12-06T12:00:00Z"));
        assertTrue(InPlaceResize.unfinished(pending, 1500 * MIB), "the pods ask for 1500 MiB already, the status has no re-tune yet");
        assertTrue(!InPlaceResize.unfinished(pending, 2000 * MIB), "other limits: a new decision");
        var done = InPlaceResize.statusOf(pending, ResizePlanner.decide(new ResizePlanner.Inputs(L1500, L1500, false, V137, null,
                652 * MIB, 325 * MIB, 10, true, true)), 1500 * MIB, 1500 * MIB, new InPlaceResize.Progress(2, 2, 2,
                java.time.Instant.parse("2026-12-06T12:00:03Z"), null, false), java.time.Instant.parse("2026-12-06T12:00:04Z"));
        assertEquals(3.0, done.secondsToRetune);
        assertTrue(!InPlaceResize.unfinished(done, 1500 * MIB), "recorded: nothing left to do");
    }

    @Test
    void thePodsRunTheirLiveBoundOnlyOnceEveryPodTookTheInPlaceResize() {
        io.ragsearch.operator.model.ResizeStatus r = new io.ragsearch.operator.model.ResizeStatus();
        assertEquals(2, InPlaceResize.running(null, 2), "no resize: the template's");
        r.mode = "InPlace";
        r.pods = 2;
        r.podsResized = 1;
        r.concurrency = 1;
        assertEquals(2, InPlaceResize.running(r, 2), "one of two pods resized: the other still runs the template's");
        r.podsResized = 2;
        assertEquals(1, InPlaceResize.running(r, 2), "every pod resized: their live bound");
        r.concurrency = null;
        assertEquals(2, InPlaceResize.running(r, 2), "no live bound reported: nothing said blind");
        r.concurrency = 3;
        r.mode = "Roll";
        assertEquals(2, InPlaceResize.running(r, 2), "a roll: the new template's");
        r.mode = "InPlace";
        r.pods = 0;
        r.podsResized = 0;
        assertEquals(2, InPlaceResize.running(r, 2), "no pod of the template yet");
    }
}
