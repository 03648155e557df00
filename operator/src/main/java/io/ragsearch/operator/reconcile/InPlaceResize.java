package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.contract.calibration.LiveRerank;
import io.ragsearch.operator.budget.HeapSize;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.ResizeStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.podadmin.PodAdminClient;
import io.ragsearch.operator.spec.CheckedSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The I/O of an in-place resize around {@link ResizePlanner}: the running template's limits read
 * from the Deployment, the pods moved one step each reconcile (a decrease announced to the pod's
 * server and in force before its resize is patched), and the status block that tells how it went.
 */
final class InPlaceResize {

    private static final Logger LOG = LoggerFactory.getLogger(InPlaceResize.class);
    /** How long a reconcile waits for a pod to have its lower bound in force (its running reranks end) before it looks again later. */
    private static final Duration IN_FORCE_WAIT = Duration.ofSeconds(5);
    /**
     * How soon a reconcile looks again while pods are being resized: the kubelet applies a resize
     * within a second and the server follows its cgroup within its one-second poll, so the status
     * tells the re-tune seconds after it happened, not the 10 s of other pending work later.
     */
    static final Duration LOOK_AGAIN = Duration.ofSeconds(2);

    private final PodResizeClient api;
    private final PodAdminClient podAdmin;
    private final int adminPort;

    InPlaceResize(PodResizeClient api, PodAdminClient podAdmin, int adminPort) {
        this.api = api;
        this.podAdmin = podAdmin;
        this.adminPort = adminPort;
    }

    ResizePlanner.Support support() {
        return api.support();
    }

    /** The spec under the limits the running Deployment's pod template was made with; the spec itself without one. */
    static CheckedSpec atTemplateLimits(CheckedSpec spec, Deployment running) {
        Optional<Container> server = serverContainer(running == null ? List.of() : running.getSpec().getTemplate().getSpec().getContainers());
        if (server.isEmpty() || server.get().getResources() == null || server.get().getResources().getLimits() == null) {
            return spec;
        }
        Quantity memory = server.get().getResources().getLimits().get("memory");
        if (memory == null) {
            return spec;
        }
        Quantity cpu = server.get().getResources().getLimits().get("cpu");
        long bytes = Quantity.getAmountInBytes(memory).longValue();
        Long millis = cpu == null ? null : Quantity.getAmountInBytes(cpu).multiply(BigDecimal.valueOf(1000)).longValue();
        if (bytes == spec.memoryBytes() && Objects.equals(millis, spec.cpuMillis())) {
            return spec;
        }
        // The heap follows the limit unless the spec fixes it (then it is the same in both).
        long heap = spec.spec().resources != null && spec.spec().resources.heap != null ? spec.heapBytes() : HeapSize.forLimit(bytes);
        CheckedSpec.Limits limits = new CheckedSpec.Limits(new CheckedSpec.Memory(bytes, memory.toString(), heap),
                new CheckedSpec.Cpu(millis, cpu == null ? null : cpu.toString()), spec.limits().storage());
        return spec.withLimits(limits);
    }

    static ResizePlanner.Limits limits(CheckedSpec spec) {
        return new ResizePlanner.Limits(spec.memoryBytes(), spec.cpuMillis());
    }

    private static Optional<Container> serverContainer(List<Container> containers) {
        return containers.stream().filter(c -> PodLayout.SERVER_CONTAINER.equals(c.getName())).findFirst();
    }

    /** What the pods did this reconcile. */
    record Progress(int pods, int resized, Integer concurrency, Instant retunedAt, String refused, boolean pending) {
    }

    /** One step for each running pod of the current template towards the spec's limits. */
    Progress step(CheckedSpec spec, List<Pod> templatePods) {
        ResizePlanner.Limits target = limits(spec);
        int resized = 0;
        Integer concurrency = null;
        Instant retunedAt = null;
        boolean pending = false;
        for (Pod pod : templatePods) {
            Optional<Container> server = serverContainer(pod.getSpec().getContainers());
            if (server.isEmpty() || pod.getStatus() == null || pod.getStatus().getPodIP() == null) {
                pending = true;
                continue;
            }
            ResizePlanner.Limits current = podLimits(server.get());
            boolean ready = RolloutPods.ready(pod);
            LiveRerank live = ready ? live(pod) : null;
            ResizePlanner.Step step = ResizePlanner.podStep(current, target, live, ready);
            if (step == ResizePlanner.Step.ANNOUNCE) {
                live = announce(pod, target.memoryBytes());
                step = live == null ? ResizePlanner.Step.NOT_YET : ResizePlanner.podStep(current, target, live, ready);
                long until = System.nanoTime() + IN_FORCE_WAIT.toNanos();
                while (step == ResizePlanner.Step.WAIT && System.nanoTime() < until) {
                    sleep();
                    live = live(pod);
                    step = ResizePlanner.podStep(current, target, live, ready);
                }
            }
            if (step == ResizePlanner.Step.PATCH) {
                PodResizeClient.Result r = api.resize(pod, PodLayout.SERVER_CONTAINER, spec.memory(), spec.cpu());
                if (!r.applied()) {
                    LOG.info("pod {}: resize refused: {}", pod.getMetadata().getName(), r.refusal());
                    return new Progress(templatePods.size(), resized, concurrency, retunedAt, r.refusal(), true);
                }
                pending = true; // the kubelet applies it, the server follows: seen on a later reconcile
                continue;
            }
            if (step != ResizePlanner.Step.DONE) {
                pending = true;
                continue;
            }
            // Asked for; done once the kubelet applied it and the server re-tuned to it.
            if (!applied(pod, target) || live == null || live.memoryLimitBytes() == null || live.memoryLimitBytes() != target.memoryBytes()
                    || LiveRerank.SOURCE_ANNOUNCED.equals(live.limitSource()) || !retunedToCpu(live, target)) {
                pending = true;
                continue;
            }
            resized++;
            concurrency = concurrency == null ? live.concurrency() : Math.min(concurrency, live.concurrency());
            if (live.retunedAt() != null) {
                Instant at = Instant.parse(live.retunedAt());
                retunedAt = retunedAt == null || at.isAfter(retunedAt) ? at : retunedAt;
            }
        }
        return new Progress(templatePods.size(), resized, concurrency, retunedAt, null, pending);
    }

    /** The kubelet reports the container at these limits, memory and CPU (status.containerStatuses[].resources). */
    static boolean applied(Pod pod, ResizePlanner.Limits target) {
        return pod.getStatus().getContainerStatuses() != null && pod.getStatus().getContainerStatuses().stream()
                .filter(cs -> PodLayout.SERVER_CONTAINER.equals(cs.getName()) && cs.getResources() != null
                        && cs.getResources().getLimits() != null)
                .anyMatch(cs -> {
                    Quantity m = cs.getResources().getLimits().get("memory");
                    Quantity cpu = cs.getResources().getLimits().get("cpu");
                    Long millis = cpu == null ? null : Quantity.getAmountInBytes(cpu).multiply(BigDecimal.valueOf(1000)).longValue();
                    return m != null && Quantity.getAmountInBytes(m).longValue() == target.memoryBytes()
                            && Objects.equals(millis, target.cpuMillis());
                });
    }

    /**
     * The server's bound follows the target's CPU limit: a CPU-only resize leaves the memory limit
     * as it was, so without this the pod would count as re-tuned before its server saw the new
     * quota. A server that does not say its CPU limit (before live.cpuLimitMillis) is taken at
     * its memory limit's word, as before.
     */
    static boolean retunedToCpu(LiveRerank live, ResizePlanner.Limits target) {
        return live.cpuLimitMillis() == null || live.cpuLimitMillis().equals(target.cpuMillis());
    }

    /** The limits a pod's server container asks for now (its spec: the template's, or a resize's). */
    static ResizePlanner.Limits podLimits(Pod pod) {
        return serverContainer(pod.getSpec().getContainers()).map(InPlaceResize::podLimits).orElse(new ResizePlanner.Limits(0, null));
    }

    private static ResizePlanner.Limits podLimits(Container c) {
        Quantity memory = c.getResources() == null || c.getResources().getLimits() == null ? null : c.getResources().getLimits().get("memory");
        Quantity cpu = c.getResources() == null || c.getResources().getLimits() == null ? null : c.getResources().getLimits().get("cpu");
        return new ResizePlanner.Limits(memory == null ? 0 : Quantity.getAmountInBytes(memory).longValue(),
                cpu == null ? null : Quantity.getAmountInBytes(cpu).multiply(BigDecimal.valueOf(1000)).longValue());
    }

    private LiveRerank live(Pod pod) {
        try {
            return podAdmin.live(pod.getStatus().getPodIP(), adminPort).orElse(null);
        } catch (IOException e) {
            LOG.debug("pod {}: live bound not read: {}", pod.getMetadata().getName(), e.getMessage());
            return null;
        }
    }

    private LiveRerank announce(Pod pod, long bytes) {
        try {
            return podAdmin.announceMemoryLimit(pod.getStatus().getPodIP(), adminPort, bytes);
        } catch (IOException e) {
            LOG.info("pod {}: memory limit not announced: {}", pod.getMetadata().getName(), e.getMessage());
            return null;
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** When the spec was last written (the newest spec write in managedFields), else now. */
    static Instant specWrittenAt(RagSearch r, Instant now) {
        List<ManagedFieldsEntry> fields = r.getMetadata().getManagedFields();
        if (fields == null) {
            return now;
        }
        return fields.stream().filter(f -> f.getSubresource() == null || f.getSubresource().isEmpty())
                .map(ManagedFieldsEntry::getTime).filter(Objects::nonNull).map(Instant::parse).max(Instant::compareTo).orElse(now);
    }

    /**
     * An in-place resize to these limits not yet seen through: its pods may all ask for them
     * already (back at the template's, nothing differs) while the status has not recorded their
     * re-tune — without this it would stay at "0 of 2" for ever.
     */
    static boolean unfinished(ResizeStatus last, long memoryBytes) {
        return last != null && "InPlace".equals(last.mode) && Objects.equals(last.memoryLimitBytes, memoryBytes)
                && last.retunedAt == null && last.refused == null;
    }

    /** The last status block was about these limits (memory and CPU): a CPU-only change is a new target too. */
    static boolean sameTarget(ResizeStatus last, long memoryBytes, Long cpuMillis) {
        return last != null && Objects.equals(last.memoryLimitBytes, memoryBytes) && Objects.equals(last.cpuLimitMillis, cpuMillis);
    }

    /** The status block: the decision and, in place, how far the pods are. */
    static ResizeStatus status(ResizeStatus old, ResizePlanner.Decision decision, CheckedSpec spec, CheckedSpec template,
                               Progress progress, Instant requested) {
        return statusOf(old, decision, spec.memoryBytes(), spec.cpuMillis(), template.memoryBytes(), progress, requested);
    }

    /** The same from the two memory limits, without a CPU limit (pure). */
    static ResizeStatus statusOf(ResizeStatus old, ResizePlanner.Decision decision, long memoryBytes, long templateMemoryBytes,
                                 Progress progress, Instant requested) {
        return statusOf(old, decision, memoryBytes, null, templateMemoryBytes, progress, requested);
    }

    /** The same from the spec's memory and CPU limits and the template's memory limit (pure). */
    static ResizeStatus statusOf(ResizeStatus old, ResizePlanner.Decision decision, long memoryBytes, Long cpuMillis,
                                 long templateMemoryBytes, Progress progress, Instant requested) {
        ResizeStatus s = new ResizeStatus();
        s.mode = decision.inPlace() ? "InPlace" : "Roll";
        s.reason = decision.reason();
        s.memoryLimitBytes = memoryBytes;
        s.cpuLimitMillis = cpuMillis;
        s.templateMemoryLimitBytes = templateMemoryBytes;
        // The same target keeps when it was asked for, and a refusal (which turned it into a roll) until the limits change again.
        boolean sameTarget = sameTarget(old, memoryBytes, cpuMillis);
        s.requestedAt = sameTarget && old.requestedAt != null ? old.requestedAt : requested.toString();
        s.refused = progress != null && progress.refused() != null ? progress.refused() : sameTarget ? old.refused : null;
        if (progress != null) {
            s.pods = progress.pods();
            s.podsResized = progress.resized();
            s.concurrency = progress.concurrency();
            if (progress.resized() == progress.pods() && progress.pods() > 0 && progress.retunedAt() != null) {
                s.retunedAt = progress.retunedAt().toString();
                s.secondsToRetune = Math.max(0, Duration.between(Instant.parse(s.requestedAt), progress.retunedAt()).toMillis() / 1000.0);
            }
        }
        return s;
    }

    /**
     * The concurrency the pods run: the template's, or once every pod of the template took an
     * in-place resize, the live bound they report (the template keeps its own limit's value, and
     * no pod runs it then).
     */
    static int running(ResizeStatus resize, int template) {
        boolean done = resize != null && "InPlace".equals(resize.mode) && resize.concurrency != null && resize.pods != null
                && resize.pods > 0 && resize.pods.equals(resize.podsResized);
        return done ? resize.concurrency : template;
    }

    static boolean ofTemplate(Pod p, String configHash) {
        return serving(p) && configHash != null && configHash.equals(p.getMetadata().getLabels().get(Labels.CONFIG_HASH));
    }

    /** A pod of the serving Deployment (of any template), not terminating: not a verification's candidate. */
    static boolean serving(Pod p) {
        return p.getMetadata().getLabels() != null && !Labels.ROLE_CANDIDATE.equals(p.getMetadata().getLabels().get(Labels.LABEL_ROLE))
                && p.getMetadata().getDeletionTimestamp() == null;
    }
}
