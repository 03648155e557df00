package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;

import java.time.Instant;

/** A pod's status as kubectl get pod -o yaml would show it, from a snapshot of its state. */
final class PodStatusView {
    /** The node's address: every pod runs on this machine. */
    static final String HOST_IP = "127.0.0.1";

    /** The state to show; {@code waitingReason} null while the container runs. */
    record Snapshot(String ip, boolean running, boolean started, boolean ready, boolean initialized, int restarts,
                    Instant startedAt, String waitingReason, String waitingMessage, ContainerStatus lastTermination,
                    Instant admittedAt) {
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
        String now = Instant.now().toString();
        return new PodStatusBuilder()
                .withPhase(s.running() || s.restarts() > 0 ? "Running" : "Pending")
                .withPodIP(s.ip()).addNewPodIP().withIp(s.ip()).endPodIP()
                .withHostIP(HOST_IP).addNewHostIP().withIp(HOST_IP).endHostIP()
                .withStartTime(s.admittedAt().toString())
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(now).endCondition()
                .addNewCondition().withType("Initialized").withStatus(s.initialized() ? "True" : "False").endCondition()
                .addNewCondition().withType("ContainersReady").withStatus(s.ready() ? "True" : "False").endCondition()
                .addNewCondition().withType("Ready").withStatus(s.ready() ? "True" : "False").endCondition()
                .withContainerStatuses(cs.build())
                .build();
    }

    /** The last state a finished run leaves behind. */
    static ContainerStatus terminated(int code, String reason, String message, Instant startedAt) {
        return new ContainerStatusBuilder().withNewLastState().withNewTerminated()
                .withExitCode(code).withReason(reason).withMessage(message)
                .withStartedAt(startedAt == null ? null : startedAt.toString()).withFinishedAt(Instant.now().toString())
                .endTerminated().endLastState().build();
    }
}
