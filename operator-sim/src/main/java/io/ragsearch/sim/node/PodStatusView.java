package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;

import java.util.Map;
import java.util.TreeMap;

import java.time.Instant;

/** A pod's status as kubectl get pod -o yaml would show it, from a snapshot of its state. */
final class PodStatusView {
    /** The node's address: every pod runs on this machine. */
    static final String HOST_IP = "127.0.0.1";

    /** The state to show; {@code waitingReason} null while the container runs. */
    record Snapshot(String ip, boolean running, boolean started, boolean ready, boolean initialized, int restarts,
                    Instant startedAt, String waitingReason, String waitingMessage, ContainerStatus lastTermination,
                    Instant admittedAt, Resize resize) {
    }

    /**
     * What a kubelet with in-place resize reports (Kubernetes 1.35+): the CPU and memory applied to
     * the container ({@code actuated}), the requests the node allocated to it, the resize conditions
     * (PodResizePending, PodResizeInProgress; null when absent) and the pod generation it acted on.
     * The API server only accepts a resize of a running pod whose container status has resources.
     */
    record Resize(ResourceRequirements actuated, ResourceRequirements allocated, PodCondition pending, PodCondition inProgress,
                  long observedGeneration) {
    }

    private PodStatusView() {
    }

    static PodStatus of(Container main, Snapshot s) {
        ContainerStatusBuilder cs = new ContainerStatusBuilder()
                .withName(main.getName()).withImage(main.getImage()).withRestartCount(s.restarts())
                .withReady(s.ready()).withStarted(s.started());
        if (s.running()) {
            cs.withNewState().withNewRunning().withStartedAt(s.startedAt().toString()).endRunning().endState();
        } else {
            cs.withNewState().withNewWaiting().withReason(s.waitingReason() == null ? "Terminating" : s.waitingReason())
                    .withMessage(s.waitingMessage()).endWaiting().endState();
        }
        if (s.lastTermination() != null) {
            cs.withLastState(s.lastTermination().getLastState());
        }
        Resize r = s.resize();
        if (r != null) {
            cs.withResources(cpuAndMemory(r.actuated()));
            cs.withAllocatedResources(r.allocated().getRequests() == null ? Map.of() : new TreeMap<>(r.allocated().getRequests()));
        }
        PodStatusBuilder status = new PodStatusBuilder()
                .withPhase(s.running() || s.restarts() > 0 ? "Running" : "Pending")
                .withPodIP(s.ip()).addNewPodIP().withIp(s.ip()).endPodIP()
                .withHostIP(HOST_IP).addNewHostIP().withIp(HOST_IP).endHostIP()
                .withStartTime(s.admittedAt().toString())
                .addNewCondition().withType("PodScheduled").withStatus("True").endCondition()
                .addNewCondition().withType("Initialized").withStatus(s.initialized() ? "True" : "False").endCondition()
                .addNewCondition().withType("ContainersReady").withStatus(s.ready() ? "True" : "False").endCondition()
                .addNewCondition().withType("Ready").withStatus(s.ready() ? "True" : "False").endCondition()
                .withContainerStatuses(cs.build());
        if (r != null) {
            status.withObservedGeneration(r.observedGeneration());
            if (r.pending() != null) {
                status.addToConditions(r.pending());
            }
            if (r.inProgress() != null) {
                status.addToConditions(r.inProgress());
            }
        }
        return status.build();
    }

    /**
     * Each condition's lastTransitionTime as a kubelet keeps it: the previous status's while the
     * condition's status is the same, {@code now} when it changed or is new (a condition that
     * carries its own time keeps it). The HPA reads Ready's to leave a pod's start-up CPU out.
     */
    static void keepTransitions(PodStatus next, PodStatus previous, Instant now) {
        for (PodCondition c : next.getConditions()) {
            if (c.getLastTransitionTime() != null) {
                continue;
            }
            String since = previous == null || previous.getConditions() == null ? null : previous.getConditions().stream()
                    .filter(p -> c.getType().equals(p.getType()) && c.getStatus().equals(p.getStatus()))
                    .map(PodCondition::getLastTransitionTime).filter(java.util.Objects::nonNull).findFirst().orElse(null);
            c.setLastTransitionTime(since == null ? now.toString() : since);
        }
    }

    /** The container's CPU and memory as the runtime applied them (what status.containerStatuses[].resources holds). */
    private static ResourceRequirements cpuAndMemory(ResourceRequirements applied) {
        return new ResourceRequirementsBuilder().withLimits(only(applied.getLimits())).withRequests(only(applied.getRequests())).build();
    }

    private static Map<String, Quantity> only(Map<String, Quantity> m) {
        Map<String, Quantity> out = new TreeMap<>();
        if (m != null) {
            m.forEach((k, v) -> {
                if (k.equals("cpu") || k.equals("memory")) {
                    out.put(k, v);
                }
            });
        }
        return out;
    }

    /** The last state a finished run leaves behind. */
    static ContainerStatus terminated(int code, String reason, String message, Instant startedAt) {
        return new ContainerStatusBuilder().withNewLastState().withNewTerminated()
                .withExitCode(code).withReason(reason).withMessage(message)
                .withStartedAt(startedAt == null ? null : startedAt.toString()).withFinishedAt(Instant.now().toString())
                .endTerminated().endLastState().build();
    }
}
