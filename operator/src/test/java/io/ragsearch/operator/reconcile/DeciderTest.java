package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.operator.manifest.Manifests;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchStatus;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decide step alone: an observed record in, the intended writes and the status out. No
 * cluster, no pod, no clock: what {@link ClusterObserver} would have read is written here.
 */
class DeciderTest {
    private static final long MIB = 1024 * 1024;
    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
    private static final RagSearchReconciler.Settings SETTINGS = RagSearchReconciler.Settings.defaults();
    private static final ResizePlanner.Support V137 = new ResizePlanner.Support(true, "Kubernetes v1.37.2");

    @Test
    void anInvalidSpecIsRefusedWithItsProblemsAndNoObjectToApply() {
        RagSearch r = MockCluster.ragSearch("ns", "rules", "1500Mi", "2");
        r.getSpec().image = null;
        r.getMetadata().setFinalizers(new ArrayList<>(List.of(RagSearchReconciler.LEGACY_FINALIZER)));

        var refused = assertInstanceOf(ReconcileDecision.Refuse.class, Decider.decide(observeInvalid(r), SETTINGS));
        assertTrue(refused.dropLegacyFinalizer(), "the finalizer of an earlier version goes, valid spec or not");
        RagSearchStatus s = refused.conclusion().status();
        assertTrue(Conditions.isTrue(s.conditions, Conditions.INVALID_SPEC));
        assertTrue(message(s, Conditions.INVALID_SPEC).contains("spec.image is required"), message(s, Conditions.INVALID_SPEC));
        assertEquals(List.of("InvalidSpec"), reasons(refused.conclusion().events()));
        assertTrue(refused.conclusion().events().get(0).warning());
        assertEquals(SETTINGS.pending(), refused.conclusion().again(), "a missing reference may appear: look again soon");
        assertEquals(false, refused.conclusion().metric().valid());
    }

    @Test
    void aFirstReconcileRendersTheSpecWithTheCalibrationKeyItWasCheckedWith() {
        CheckedSpec spec = check(MockCluster.ragSearch("ns", "rules", "2000Mi", "4"));
        var decided = apply(Decider.decide(observe(spec, spec, List.of(), null, Map.of(), null, null), SETTINGS));

        assertTrue(!decided.dropLegacyFinalizer());
        assertEquals(ResizePlanner.Mode.UNCHANGED, decided.resize().mode(), "nothing runs yet: no resize to decide");
        assertEquals(spec, decided.rendered());
        Deployment d = decided.manifests().deployment();
        assertEquals(spec.calibrationKey(), d.getSpec().getTemplate().getMetadata().getLabels().get(Labels.CALIBRATION_KEY),
                "the pods are labelled with the key the spec carries");
        assertEquals(spec.calibrationKey(), decided.plan().status().calibrationKey, "and the plan compares with the same one");
        assertEquals(decided.manifests().configHash(), Manifests.configHash(d), "one hash, on the template and in the decision");
        assertEquals("1", MockCluster.env(d, "RAGSEARCH_RERANK_CONCURRENCY"), "no measurement yet");
        assertEquals(0, decided.ready());
        assertEquals(List.of(), decided.resizePods());
        assertEquals(PromotionPlanner.Serving.SPEC, decided.promotion().serving());
        assertTrue(reasons(decided.events()).contains("ConcurrencyChanged"), decided.events().toString());

        var done = Decider.conclude(observe(spec, spec, List.of(), null, Map.of(), null, null), decided,
                new ReconcileDecision.Reported(decided.promotion(), null), SETTINGS);
        assertEquals(SETTINGS.pending(), done.again(), "no pod ready: look again soon");
        assertEquals(1, done.status().rerank.running);
        assertNull(done.status().resize);
        assertNull(decided.status().rerank.running, "conclude finishes a copy: the decision stays as decided");
    }

    @Test
    void aReadyPodOfTheTemplateThatMeasuredItselfSettlesTheDecision() {
        CheckedSpec spec = check(MockCluster.ragSearch("ns", "rules", "2000Mi", "4"));
        Observation first = observe(spec, spec, List.of(), null, Map.of(), null, null);
        var untuned = apply(Decider.decide(first, SETTINGS));
        // The pod of the first template measured: 400 MiB resident, 300 MiB a run → 4 by memory, 4 by CPU.
        Pod measuring = MockCluster.pod(untuned.manifests().deployment(), "rules-a", "10.0.0.1", true);
        Observation second = observe(spec, spec, List.of(measuring), untuned.manifests().deployment(),
                Map.of(spec.calibrationKey(), List.of(measured("rules-a", 2000))), null, status(first, untuned));
        var tuned = apply(Decider.decide(second, SETTINGS));
        assertEquals("4", MockCluster.env(tuned.manifests().deployment(), "RAGSEARCH_RERANK_CONCURRENCY"));
        assertEquals(RerankStatus.BASIS_MEASURED, tuned.plan().status().basis);
        assertEquals(0, tuned.ready(), "the measuring pod is of the template before the tuning");
        assertTrue(reasons(tuned.events()).contains("Calibrated"), tuned.events().toString());

        // The roll done: a ready pod of the tuned template, measured under the same key.
        Pod current = MockCluster.pod(tuned.manifests().deployment(), "rules-b", "10.0.0.2", true);
        Observation settled = observe(spec, spec, List.of(current), tuned.manifests().deployment(),
                Map.of(spec.calibrationKey(), List.of(measured("rules-b", 2000))), null, status(second, tuned));
        var same = apply(Decider.decide(settled, SETTINGS));
        assertEquals(tuned.manifests().configHash(), same.manifests().configHash(), "the same decision: no roll");
        assertEquals(1, same.ready());
        var done = Decider.conclude(settled, same, new ReconcileDecision.Reported(same.promotion(), null), SETTINGS);
        assertEquals(SETTINGS.settled(), done.again(), "every pod ready and measured: look again when settled");
        assertTrue(Conditions.isTrue(done.status().conditions, Conditions.READY));
        assertEquals(4, done.metric().effective());
    }

    @Test
    void aMemoryOnlyEditKeepsTheRunningTemplateAndResizesItsPodsInPlace() {
        CheckedSpec before = check(MockCluster.ragSearch("ns", "rules", "2000Mi", "4"));
        Observation start = observe(before, before, List.of(), null, Map.of(), null, null);
        Deployment running = apply(Decider.decide(start, SETTINGS)).manifests().deployment();
        Pod pod = MockCluster.pod(running, "rules-a", "10.0.0.1", true);

        CheckedSpec spec = check(MockCluster.ragSearch("ns", "rules", "1200Mi", "4"));
        CheckedSpec atTemplate = InPlaceResize.atTemplateLimits(spec, running);
        assertNotEquals(spec.calibrationKey(), atTemplate.calibrationKey(), "other limits, another key");
        assertEquals(before.calibrationKey(), atTemplate.calibrationKey(), "the template's limits, the template's key");
        Observation seen = observe(spec, atTemplate, List.of(pod), running, Map.of(), V137, null);
        var decided = apply(Decider.decide(seen, SETTINGS));

        assertEquals(ResizePlanner.Mode.IN_PLACE, decided.resize().mode(), decided.resize().toString());
        assertEquals(2000 * MIB, decided.rendered().memoryBytes(), "rendered under the template's limits");
        assertEquals(Manifests.configHash(running), decided.manifests().configHash(), "the template as it runs: no roll");
        assertEquals(List.of(pod), decided.resizePods(), "its pods are the ones to resize");

        var progress = new InPlaceResize.Progress(1, 0, null, null, null, true);
        var done = Decider.conclude(seen, decided, new ReconcileDecision.Reported(decided.promotion(), progress), SETTINGS);
        assertEquals("InPlace", done.status().resize.mode);
        assertEquals(1200 * MIB, done.status().resize.memoryLimitBytes);
        assertEquals(2000 * MIB, done.status().resize.templateMemoryLimitBytes);
        assertEquals(List.of(ResizePlanner.REASON_IN_PLACE), reasons(done.events().stream()
                .filter(a -> a.reason().startsWith("Resize")).toList()));
        assertEquals(InPlaceResize.LOOK_AGAIN, done.again(), "pods on their way: look again within seconds");

        // The same edit on a cluster that cannot resize in place rolls: the spec's limits go into the template.
        Observation old = observe(spec, atTemplate, List.of(pod), running, Map.of(), new ResizePlanner.Support(false, "Kubernetes v1.30.0"),
                null);
        var rolled = apply(Decider.decide(old, SETTINGS));
        assertEquals(ResizePlanner.REASON_UNSUPPORTED, rolled.resize().reason());
        assertEquals(spec, rolled.rendered());
        assertNotEquals(Manifests.configHash(running), rolled.manifests().configHash());
        assertEquals(List.of(), rolled.resizePods());
        var rolledDone = Decider.conclude(old, rolled, new ReconcileDecision.Reported(rolled.promotion(), null), SETTINGS);
        Announcement told = rolledDone.events().stream().filter(a -> a.reason().equals(ResizePlanner.REASON_UNSUPPORTED)).findFirst()
                .orElseThrow();
        assertTrue(told.warning(), "a roll the cluster forced is a warning");
    }

    @Test
    void aCpuOnlyEditAfterAMemoryResizeIsANewInPlaceTargetWithItsOwnEvent() {
        CheckedSpec before = check(MockCluster.ragSearch("ns", "rules", "2000Mi", "4"));
        Observation start = observe(before, before, List.of(), null, Map.of(), null, null);
        Deployment running = apply(Decider.decide(start, SETTINGS)).manifests().deployment();
        Pod pod = MockCluster.pod(running, "rules-a", "10.0.0.1", true);

        CheckedSpec spec = check(MockCluster.ragSearch("ns", "rules", "2000Mi", "2"));
        CheckedSpec atTemplate = InPlaceResize.atTemplateLimits(spec, running);
        assertEquals(4000L, atTemplate.cpuMillis(), "rendered under the template's CPU");
        // The last resize, to the same memory at the template's 4 cores, was seen through.
        RagSearchStatus previous = new RagSearchStatus();
        previous.resize = new io.ragsearch.operator.model.ResizeStatus();
        previous.resize.mode = "InPlace";
        previous.resize.reason = ResizePlanner.REASON_IN_PLACE;
        previous.resize.memoryLimitBytes = 2000 * MIB;
        previous.resize.cpuLimitMillis = 4000L;
        previous.resize.requestedAt = "2026-12-06T11:00:00Z";
        previous.resize.retunedAt = "2026-12-06T11:00:02Z";
        Observation seen = observe(spec, atTemplate, List.of(pod), running, Map.of(), V137, previous);
        var decided = apply(Decider.decide(seen, SETTINGS));
        assertEquals(ResizePlanner.Mode.IN_PLACE, decided.resize().mode(), decided.resize().toString());
        assertEquals(Manifests.configHash(running), decided.manifests().configHash(), "the template as it runs: no roll");

        var progress = new InPlaceResize.Progress(1, 0, null, null, null, true);
        var done = Decider.conclude(seen, decided, new ReconcileDecision.Reported(decided.promotion(), progress), SETTINGS);
        assertEquals(2000L, done.status().resize.cpuLimitMillis);
        assertNotEquals("2026-12-06T11:00:00Z", done.status().resize.requestedAt, "asked for anew: the memory is the same, the CPU not");
        assertNull(done.status().resize.retunedAt, "not seen through yet");
        assertEquals(List.of(ResizePlanner.REASON_IN_PLACE), reasons(done.events().stream()
                .filter(a -> a.reason().startsWith("Resize")).toList()), "a new decision: its event");
    }

    private static Observation observeInvalid(RagSearch r) {
        SpecCheck.Result checked = SpecCheck.check(r, null);
        assertTrue(!checked.valid());
        return new Observation(r, NOW, checked, null);
    }

    /**
     * What the observer would have read; calibrations under keys not given are empty. The spec's resource carries
     * {@code previous} from here on (one RagSearch object, as the informer would hand over its newest state).
     */
    private static Observation observe(CheckedSpec spec, CheckedSpec atTemplate, List<Pod> pods, Deployment running,
                                       Map<String, List<RerankPlanner.PodMeasurement>> calibrations, ResizePlanner.Support support,
                                       RagSearchStatus previous) {
        RagSearch resource = spec.resource();
        resource.setStatus(previous);
        return new Observation(resource, NOW, SpecCheck.check(resource, null), new Observation.Cluster(spec, atTemplate,
                new RolloutPods(pods), running, null, "", calibrations, support, List.of(), List.of(), Map.of()));
    }

    /** The status the reconcile of this decision wrote (nothing resized, checks started as decided). */
    private static RagSearchStatus status(Observation seen, ReconcileDecision.Apply decided) {
        return Decider.conclude(seen, decided, new ReconcileDecision.Reported(decided.promotion(), null), SETTINGS).status();
    }

    private static ReconcileDecision.Apply apply(ReconcileDecision decision) {
        return assertInstanceOf(ReconcileDecision.Apply.class, decision);
    }

    private static CheckedSpec check(RagSearch r) {
        return SpecCheck.check(r, null).spec().orElseThrow();
    }

    private static RerankPlanner.PodMeasurement measured(String pod, long limitMib) {
        Calibration c = Calibration.measured("cgroup-v2", limitMib * MIB, 400 * MIB, 300 * MIB, 4, 32, 256, 1, "sha256:aaa",
                "2026-12-06T11:59:00Z").withReranker("minilm-pair");
        return new RerankPlanner.PodMeasurement(pod, MeasuredCost.of(pod, c));
    }

    private static List<String> reasons(List<Announcement> said) {
        return said.stream().map(Announcement::reason).toList();
    }

    private static String message(RagSearchStatus s, String type) {
        return Conditions.find(s.conditions, type).orElseThrow().getMessage();
    }
}
