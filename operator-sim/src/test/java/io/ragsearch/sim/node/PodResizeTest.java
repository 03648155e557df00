package io.ragsearch.sim.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import org.junit.jupiter.api.Test;

/** The node agent's kubelet decision on a resize: taken, infeasible on this node, or deferred beside the other pods. */
class PodResizeTest {

    private static final long MIB = 1L << 20;
    private static final PodResize.Node NODE = new PodResize.Node(24L << 30, 2000, 4L << 30, 500);

    private static ResourceRequirements memory(String q) {
        return new ResourceRequirementsBuilder().addToLimits("memory", new Quantity(q)).addToRequests("memory", new Quantity(q))
                .addToRequests("ephemeral-storage", new Quantity("1Gi")).build();
    }

    @Test
    void theSameCpuAndMemoryWrittenDifferentlyIsNoResize() {
        assertEquals(PodResize.Kind.NONE, PodResize.decide(memory("1500Mi"), memory("1572864000"), NODE).kind());
    }

    @Test
    void aResizeTheNodeHoldsIsTakenUpOrDown() {
        assertEquals(PodResize.Kind.ACCEPT, PodResize.decide(memory("1500Mi"), memory("1200Mi"), NODE).kind());
        assertEquals(PodResize.Kind.ACCEPT, PodResize.decide(memory("1500Mi"), memory("2000Mi"), NODE).kind());
    }

    @Test
    void beyondTheNodesAllocatableIsInfeasibleAndSaysWhy() {
        PodResize.Decision d = PodResize.decide(memory("1500Mi"), memory("64Gi"), NODE);
        assertEquals(PodResize.Kind.INFEASIBLE, d.kind());
        assertTrue(d.message().contains(Long.toString(64L << 30)) && d.message().contains(Long.toString(24L << 30)), d.message());
        ResourceRequirements cpu = new ResourceRequirementsBuilder(memory("1500Mi")).addToRequests("cpu", new Quantity("3"))
                .addToLimits("cpu", new Quantity("3")).build();
        assertEquals(PodResize.Kind.INFEASIBLE, PodResize.decide(memory("1500Mi"), cpu, NODE).kind(), "3 cores on a 2-core node");
    }

    @Test
    void whatFitsTheNodeButNotBesideItsOtherPodsIsDeferred() {
        assertEquals(PodResize.Kind.DEFERRED, PodResize.decide(memory("1500Mi"), memory("21Gi"), NODE).kind());
        assertEquals(1500 * MIB, PodResize.bytes(memory("1500Mi").getRequests(), "memory"));
        assertEquals(500, PodResize.millis(new ResourceRequirementsBuilder().addToRequests("cpu", new Quantity("500m")).build()
                .getRequests(), "cpu"));
    }

    @Test
    void onANodeWhoseCpuRequestsExceedItsCoresAMemoryResizeIsWeighedOnMemoryAlone() {
        // Two pods of 2 CPUs each on a 2-core node (bound without a scheduler's fit): the other pods hold 2.5 cores.
        PodResize.Node busy = new PodResize.Node(24L << 30, 2000, 4L << 30, 2500);
        ResourceRequirements at1500 = new ResourceRequirementsBuilder(memory("1500Mi")).addToRequests("cpu", new Quantity("2"))
                .addToLimits("cpu", new Quantity("2")).build();
        ResourceRequirements at1200 = new ResourceRequirementsBuilder(memory("1200Mi")).addToRequests("cpu", new Quantity("2"))
                .addToLimits("cpu", new Quantity("2")).build();
        ResourceRequirements at2000 = new ResourceRequirementsBuilder(memory("2000Mi")).addToRequests("cpu", new Quantity("2"))
                .addToLimits("cpu", new Quantity("2")).build();
        assertEquals(PodResize.Kind.ACCEPT, PodResize.decide(at1500, at1200, busy).kind(), "a decrease is taken at once");
        assertEquals(PodResize.Kind.ACCEPT, PodResize.decide(at1200, at2000, busy).kind(), "more memory, the same CPU");
        ResourceRequirements moreCpu = new ResourceRequirementsBuilder(at1500).addToRequests("cpu", new Quantity("1500m")).build();
        assertEquals(PodResize.Kind.DEFERRED, PodResize.decide(new ResourceRequirementsBuilder(at1500)
                .addToRequests("cpu", new Quantity("1")).build(), moreCpu, busy).kind(), "more CPU beside 2.5 cores held");
    }

    @Test
    void backUpToWhatThePodWasAdmittedWithIsTakenOnAnOverCommittedNodeAndBeyondItIsWeighed() {
        PodResize.Node busy = new PodResize.Node(24L << 30, 2000, 4L << 30, 1200); // the other serving pod at 1 core, two operators
        ResourceRequirements twoCores = new ResourceRequirementsBuilder(memory("2000Mi")).addToRequests("cpu", new Quantity("2"))
                .addToLimits("cpu", new Quantity("2")).build();
        ResourceRequirements oneCore = new ResourceRequirementsBuilder(memory("2000Mi")).addToRequests("cpu", new Quantity("1"))
                .addToLimits("cpu", new Quantity("1")).build();
        assertEquals(PodResize.Kind.ACCEPT, PodResize.decide(twoCores, twoCores, oneCore, busy).kind(), "2 → 1: a decrease");
        assertEquals(PodResize.Kind.ACCEPT, PodResize.decide(twoCores, oneCore, twoCores, busy).kind(),
                "1 → 2: back to what the node admitted the pod with, not weighed again");
        assertEquals(PodResize.Kind.DEFERRED, PodResize.decide(oneCore, oneCore, twoCores, busy).kind(),
                "admitted at 1: more than that is weighed beside the 1.2 cores the others hold");
    }
}
