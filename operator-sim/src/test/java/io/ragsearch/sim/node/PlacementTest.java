package io.ragsearch.sim.node;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

/** The node takes a pod only if its allocatable can hold the pod's requests at all, as a scheduler's resource fit. */
class PlacementTest {

    private static final long NODE_MEMORY = 24L << 30;
    private static final long NODE_CPU = 2000;

    private static Pod pod(String memory, String cpu, String initMemory) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec()
                .addNewContainer().withName("server").withNewResources().addToRequests("memory", new Quantity(memory))
                .addToRequests("cpu", new Quantity(cpu)).endResources().endContainer()
                .addNewContainer().withName("side").withNewResources().addToRequests("memory", new Quantity("100Mi")).endResources()
                .endContainer().endSpec();
        if (initMemory != null) {
            b.editSpec().addNewInitContainer().withName("fetch").withNewResources().addToRequests("memory", new Quantity(initMemory))
                    .endResources().endInitContainer().endSpec();
        }
        return b.build();
    }

    @Test
    void aPodTheNodeHoldsIsPlaced() {
        assertNull(Placement.tooLarge(pod("2000Mi", "2", null), NODE_MEMORY, NODE_CPU));
        assertNull(Placement.tooLarge(pod("1500Mi", "500m", "1Gi"), NODE_MEMORY, NODE_CPU));
    }

    @Test
    void requestsBeyondTheNodeAreUnschedulableAndSayWhich() {
        String memory = Placement.tooLarge(pod("1000Gi", "1", null), NODE_MEMORY, NODE_CPU);
        assertTrue(memory.startsWith("0/1 nodes are available: Insufficient memory (requested " + ((1000L << 30) + (100L << 20))),
                memory);
        assertTrue(memory.contains("allocatable " + NODE_MEMORY), memory);
        String cpu = Placement.tooLarge(pod("1Gi", "3", null), NODE_MEMORY, NODE_CPU);
        assertTrue(cpu.contains("Insufficient cpu (requested 3000m, allocatable 2000m)"), cpu);
        String init = Placement.tooLarge(pod("1Gi", "1", "30Gi"), NODE_MEMORY, NODE_CPU);
        assertTrue(init.contains("Insufficient memory (requested " + (30L << 30)), "the largest init container counts: " + init);
    }
}
