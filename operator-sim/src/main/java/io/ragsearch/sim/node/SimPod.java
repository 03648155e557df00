package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One pod's life on our node: its containers run as processes ({@link ContainerProcess}), its
 * probes run as a kubelet runs them ({@link ProbeState}), the result written into the Pod's
 * status ({@link PodStatusView}). A failed liveness or startup probe, or an exit, restarts the
 * container with a growing back-off. The Pod object is the API server's: made by a controller,
 * deleted here with grace 0 once the process has stopped.
 */
final class SimPod {
    private static final Logger LOG = LoggerFactory.getLogger(SimPod.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    final String namespace;
    final String name;
    final String ip;
    private final PodSpec spec;
    private final Instant admittedAt = Instant.now();
    private final KubernetesClient client;
    private final ContainerProcess containers;
    private final ScheduledExecutorService scheduler;
    private final Path podDir;
    private final ProbeState probes = new ProbeState();
    private final List<ScheduledFuture<?>> probeTasks = new ArrayList<>();
    private final ProjectedTokens tokens;
    /** Checks every second whether a projected token is due (cheap: a comparison of times until one is). */
    private ScheduledFuture<?> tokenRefresh;

    private Process process;
    private Map<String, Path> volumes;
    private int generation;
    private int restarts;
    private boolean terminating;
    private String waitingReason = "ContainerCreating";
    private String waitingMessage;
    private ContainerStatus lastTermination;
    private Instant startedAt;
    private String killReason;
    // In-place resize (PodResize): what the node allocated to the main container, what its cgroup
    // holds now, the resize conditions, and the pod generation last acted on.
    private ResourceRequirements allocated;
    private ResourceRequirements actuated;
    private PodCondition resizePending;
    private PodCondition resizeInProgress;
    private long observedGeneration;

    /** Which pod (its uid binds its projected tokens), and the loopback address it runs on. */
    record Identity(String namespace, String name, String uid, String ip) {
    }

    SimPod(KubernetesClient client, Identity id, PodSpec spec, ContainerLauncher launcher,
           MemoryCgroups cgroups, CpuAccounting cpu, CpuCgroups cpuLimits, ScheduledExecutorService scheduler, Path workDir) {
        this.client = client;
        this.namespace = id.namespace();
        this.name = id.name();
        this.ip = id.ip();
        this.spec = spec;
        this.scheduler = scheduler;
        this.podDir = workDir.resolve("pods").resolve(namespace + "_" + name);
        this.tokens = new ProjectedTokens(client, new ProjectedTokens.Pod(namespace, name, id.uid(), spec.getServiceAccountName()));
        this.containers = new ContainerProcess(launcher, cgroups, cpu, cpuLimits, namespace, name, ip, podDir);
        this.allocated = main().getResources() == null ? new ResourceRequirements() : main().getResources();
        this.actuated = allocated;
    }

    /** Starts its containers (the Pod object exists: a controller made it). */
    void start() {
        publish();
        scheduler.execute(this::runContainers);
    }

    synchronized boolean ready() {
        return probes.ready() && !terminating;
    }

    synchronized boolean terminating() {
        return terminating;
    }

    synchronized int restarts() {
        return restarts;
    }

    private Container main() {
        return spec.getContainers().get(0);
    }

    /** The main container with the resources the node allocated to it (a restart keeps a resize). */
    private synchronized Container allocatedMain() {
        return new ContainerBuilder(main()).withResources(allocated).build();
    }

    /**
     * A kubelet's pass over the pod's spec: a resize (its main container asking for other CPU or
     * memory) is taken if the node can hold it, then applied to the running container's cgroup;
     * the status says so as a real kubelet's does.
     */
    void sync(Pod latest, PodResize.Node node) {
        Long generation = latest.getMetadata().getGeneration();
        long gen = generation == null ? 0 : generation;
        ResourceRequirements desired = latest.getSpec().getContainers().get(0).getResources();
        boolean changed;
        boolean actuate;
        ResourceRequirements target;
        synchronized (this) {
            if (terminating) {
                return;
            }
            changed = gen != observedGeneration;
            observedGeneration = gen;
            ResourceRequirements admitted = main().getResources() == null ? new ResourceRequirements() : main().getResources();
            PodResize.Decision d = PodResize.decide(admitted, allocated, desired == null ? new ResourceRequirements() : desired, node);
            switch (d.kind()) {
                case NONE -> {
                    changed |= resizePending != null;
                    resizePending = null;
                }
                case INFEASIBLE, DEFERRED -> {
                    String reason = d.kind() == PodResize.Kind.INFEASIBLE ? "Infeasible" : "Deferred";
                    if (resizePending == null || !reason.equals(resizePending.getReason())
                            || resizePending.getObservedGeneration() == null || resizePending.getObservedGeneration() != gen) {
                        resizePending = condition("PodResizePending", reason, d.message(), gen);
                        changed = true;
                        LOG.info("pod {}/{}: resize pending ({}): {}", namespace, name, reason, d.message());
                    }
                }
                case ACCEPT -> {
                    allocated = desired;
                    resizePending = null;
                    resizeInProgress = condition("PodResizeInProgress", null, null, gen);
                    changed = true;
                }
            }
            actuate = !PodResize.sameCpuAndMemory(allocated, actuated);
            target = allocated;
        }
        if (changed) {
            publish();
        }
        if (actuate) {
            actuate(target);
        }
    }

    /** Applies the allocated memory and CPU limits to the running container's cgroups (where the node enforces them). */
    private void actuate(ResourceRequirements target) {
        String error = null;
        long limit = PodResize.bytes(target.getLimits(), "memory");
        Long cpu = target.getLimits() == null || target.getLimits().get("cpu") == null ? null : PodResize.millis(target.getLimits(), "cpu");
        try {
            if (limit > 0) {
                containers.resizeMemory(limit);
            }
        } catch (IOException e) {
            error = "memory limit " + limit + " not applied: " + e.getMessage();
        }
        try {
            if (error == null) {
                containers.resizeCpu(cpu);
            }
        } catch (IOException e) {
            error = "cpu limit " + (cpu == null ? "none" : cpu + "m") + " not applied: " + e.getMessage();
        }
        boolean changed;
        synchronized (this) {
            if (error == null) {
                actuated = target;
                changed = resizeInProgress != null;
                resizeInProgress = null;
                LOG.info("pod {}/{}: resized in place to memory {}, cpu {}", namespace, name, limit, cpu == null ? "no limit" : cpu + "m");
            } else {
                long gen = resizeInProgress == null || resizeInProgress.getObservedGeneration() == null ? observedGeneration
                        : resizeInProgress.getObservedGeneration();
                changed = resizeInProgress == null || !error.equals(resizeInProgress.getMessage());
                resizeInProgress = condition("PodResizeInProgress", "Error", error, gen);
            }
        }
        if (changed) {
            publish();
        }
    }

    private static PodCondition condition(String type, String reason, String message, long generation) {
        return new PodConditionBuilder().withType(type).withStatus("True").withReason(reason).withMessage(message)
                .withObservedGeneration(generation).withLastProbeTime(Instant.now().toString())
                .withLastTransitionTime(Instant.now().toString()).build();
    }

    /** The CPU and memory requests the node holds for this pod (its allocation). */
    synchronized long[] allocatedRequests() {
        return new long[] {PodResize.bytes(allocated.getRequests(), "memory"), PodResize.millis(allocated.getRequests(), "cpu")};
    }

    private void runContainers() {
        int gen;
        synchronized (this) {
            if (terminating) {
                return;
            }
            gen = ++generation;
        }
        try {
            if (volumes == null) {
                Files.createDirectories(podDir);
                volumes = PodFiles.prepare(client, namespace, name, spec, podDir, tokens);
                synchronized (this) {
                    if (!tokens.issued().isEmpty() && tokenRefresh == null) {
                        tokenRefresh = scheduler.scheduleWithFixedDelay(() -> tokens.refreshDue(Instant.now()), 1, 1, TimeUnit.SECONDS);
                    }
                }
            }
            containers.runInit(spec.getInitContainers(), volumes,
                    init -> waiting("PodInitializing", "running init container " + init));
            Process started = containers.start(allocatedMain(), volumes);
            synchronized (this) {
                process = started;
                startedAt = Instant.now();
                waitingReason = null;
                waitingMessage = null;
                killReason = null;
                probes.reset(Probe.of(ProbeKind.STARTUP, main()) != null);
            }
            publish();
            started.onExit().thenAccept(p -> exited(gen, p.exitValue()));
            scheduleProbes(gen);
        } catch (IOException e) {
            LOG.warn("pod {}/{}: {}", namespace, name, e.getMessage());
            waiting("CreateContainerError", e.getMessage());
            restartLater(gen);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void scheduleProbes(int gen) {
        synchronized (this) {
            for (ProbeKind kind : ProbeKind.values()) {
                Probe p = Probe.of(kind, main());
                if (p != null) {
                    probeTasks.add(scheduler.scheduleWithFixedDelay(() -> probe(gen, p), p.initialDelaySeconds() * 1000L,
                            p.periodSeconds() * 1000L, TimeUnit.MILLISECONDS));
                }
            }
        }
    }

    private void probe(int gen, Probe p) {
        synchronized (this) {
            if (gen != generation || terminating || process == null || !process.isAlive() || !probes.runs(p.kind())) {
                return;
            }
        }
        boolean ok = p.check(ip);
        ProbeState.Outcome outcome;
        synchronized (this) {
            if (gen != generation || terminating) {
                return;
            }
            outcome = probes.record(p, ok);
            if (outcome.killReason() != null) {
                killReason = outcome.killReason();
            }
        }
        if (outcome.killReason() != null) {
            LOG.info("pod {}/{}: {}: restarting the container", namespace, name, outcome.killReason());
            stopProcess(Duration.ofSeconds(grace()));
        }
        if (outcome.changed() || outcome.killReason() != null) {
            publish();
        }
    }

    private void exited(int gen, int code) {
        boolean oom = containers.oomKilled();
        synchronized (this) {
            if (gen != generation) {
                return;
            }
            probeTasks.forEach(t -> t.cancel(false));
            probeTasks.clear();
            probes.stopped();
            String reason = oom ? "OOMKilled" : killReason != null ? "Error" : code == 0 ? "Completed" : "Error";
            lastTermination = PodStatusView.terminated(code, reason, killReason, startedAt);
            if (terminating) {
                return;
            }
            restarts++;
            waitingReason = "CrashLoopBackOff";
            waitingMessage = "exited with " + code + (oom ? " (OOM-killed at the memory limit)" : "")
                    + (killReason != null ? " after: " + killReason : "");
        }
        LOG.info("pod {}/{}: container exited with {}{}", namespace, name, code, oom ? " (OOMKilled)" : "");
        containers.release();
        publish();
        restartLater(gen);
    }

    private void restartLater(int gen) {
        long backoff = Math.min(MAX_BACKOFF.toMillis(), 1000L << Math.min(4, Math.max(0, restarts() - 1)));
        scheduler.schedule(() -> {
            synchronized (this) {
                if (gen != generation || terminating) {
                    return;
                }
            }
            runContainers();
        }, backoff, TimeUnit.MILLISECONDS);
    }

    /** Marks the pod as going (unready from now on); false when it already was. */
    synchronized boolean beginTermination() {
        if (terminating) {
            return false;
        }
        terminating = true;
        probes.unready();
        return true;
    }

    /**
     * After {@link #beginTermination()}: stops the pod as the control plane and kubelet do together: out of the endpoints first
     * ({@code endpointDelay}, the time a Service takes to notice), then SIGTERM, then SIGKILL
     * after the grace period; finally the Pod object goes.
     */
    void terminate(Duration endpointDelay) {
        publish();
        // The time a Service takes to notice: a modelled delay, not a wait for a condition.
        sleep(endpointDelay);
        stopProcess(Duration.ofSeconds(grace()));
        synchronized (this) {
            probeTasks.forEach(t -> t.cancel(false));
            probeTasks.clear();
            stopTokenRefresh();
        }
        containers.release();
        try {
            // the process has stopped: the API server may forget the pod now
            client.pods().inNamespace(namespace).withName(name).withGracePeriod(0).delete();
        } catch (RuntimeException e) {
            LOG.debug("pod {}/{} already gone: {}", namespace, name, e.getMessage());
        }
    }

    /** Stops the process now (simulator shutdown): SIGTERM, a short wait, SIGKILL. */
    void kill() {
        synchronized (this) {
            terminating = true;
            stopTokenRefresh();
        }
        stopProcess(Duration.ofSeconds(5));
        containers.release();
    }

    private synchronized void stopTokenRefresh() {
        if (tokenRefresh != null) {
            tokenRefresh.cancel(false);
        }
    }

    /** The main container's CPU time and memory working set while it runs (what the kubelet endpoint reports). */
    synchronized java.util.Optional<ResourceMetrics.ContainerUsage> usage() {
        if (process == null || !process.isAlive() || startedAt == null) {
            return java.util.Optional.empty();
        }
        java.util.OptionalLong cpu = containers.cpuNanos();
        java.util.OptionalLong memory = containers.workingSetBytes();
        if (cpu.isEmpty() || memory.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new ResourceMetrics.ContainerUsage(namespace, name, main().getName(), startedAt,
                cpu.getAsLong() / 1e9, memory.getAsLong()));
    }

    java.util.Optional<ProcessHandle> processHandle() {
        Process p;
        synchronized (this) {
            p = process;
        }
        return p != null && p.isAlive() ? java.util.Optional.of(p.toHandle()) : java.util.Optional.empty();
    }

    boolean processAlive() {
        Process p;
        synchronized (this) {
            p = process;
        }
        return p != null && p.isAlive();
    }

    private void stopProcess(Duration grace) {
        Process p;
        synchronized (this) {
            p = process;
        }
        ContainerProcess.stop(p, grace.toMillis());
    }

    private long grace() {
        Long g = spec.getTerminationGracePeriodSeconds();
        return g == null ? 30 : g;
    }

    private void waiting(String reason, String message) {
        synchronized (this) {
            waitingReason = reason;
            waitingMessage = message;
        }
        publish();
    }

    /** Writes the pod's status: what kubectl get pod -o yaml would show for it. */
    void publish() {
        PodStatus status;
        synchronized (this) {
            boolean running = process != null && process.isAlive() && waitingReason == null;
            status = PodStatusView.of(main(), new PodStatusView.Snapshot(ip, running, probes.started(),
                    probes.ready() && !terminating, volumes != null, restarts, startedAt, waitingReason, waitingMessage,
                    lastTermination, admittedAt, new PodStatusView.Resize(actuated, allocated, resizePending, resizeInProgress,
                    observedGeneration)));
        }
        try {
            client.pods().inNamespace(namespace).withName(name).editStatus(p -> {
                if (p.getStatus() != null) {
                    status.setQosClass(p.getStatus().getQosClass()); // the API server's, and immutable
                }
                PodStatusView.keepTransitions(status, p.getStatus(), Instant.now());
                p.setStatus(status);
                return p;
            });
        } catch (RuntimeException e) {
            LOG.debug("pod {}/{} status not written: {}", namespace, name, e.getMessage());
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
