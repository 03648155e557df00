package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
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
 * One pod: a Pod object in the API server and a real process behind it, with the template's
 * probes run as a kubelet runs them and the results written into the pod's status (conditions,
 * address, container state and restarts). A failed liveness or startup probe, or an exit,
 * restarts the container with a growing back-off.
 */
final class SimPod {
    private static final Logger LOG = LoggerFactory.getLogger(SimPod.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    final String namespace;
    final String name;
    final String ip;
    final String templateHash;
    private final PodTemplateSpec template;
    private final KubernetesClient client;
    private final ContainerLauncher launcher;
    private final MemoryCgroups cgroups;
    private final ScheduledExecutorService scheduler;
    private final Path podDir;

    private Process process;
    private MemoryCgroups.Limited cgroup;
    private Map<String, Path> volumes;
    private int generation;
    private int restarts;
    private boolean started;
    private boolean ready;
    private boolean terminating;
    private String waitingReason = "ContainerCreating";
    private String waitingMessage;
    private ContainerStatus lastTermination;
    private Instant startedAt;
    private String killReason;
    private final int[] failures = new int[3];
    private final int[] successes = new int[3];
    private final List<ScheduledFuture<?>> probeTasks = new ArrayList<>();

    SimPod(KubernetesClient client, String namespace, String name, String ip, String templateHash, PodTemplateSpec template,
           ContainerLauncher launcher, MemoryCgroups cgroups, ScheduledExecutorService scheduler, Path workDir) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
        this.ip = ip;
        this.templateHash = templateHash;
        this.template = template;
        this.launcher = launcher;
        this.cgroups = cgroups;
        this.scheduler = scheduler;
        this.podDir = workDir.resolve("pods").resolve(namespace + "_" + name);
    }

    /** Creates the Pod object and starts its containers. */
    void start() {
        client.pods().inNamespace(namespace).resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace)
                .withLabels(template.getMetadata().getLabels()).withAnnotations(template.getMetadata().getAnnotations())
                .endMetadata()
                .withSpec(template.getSpec())
                .build()).create();
        publish();
        scheduler.execute(this::runContainers);
    }

    synchronized boolean ready() {
        return ready && !terminating;
    }

    synchronized boolean terminating() {
        return terminating;
    }

    synchronized int restarts() {
        return restarts;
    }

    Path log() {
        return podDir.resolve(main().getName() + ".log");
    }

    private Container main() {
        return template.getSpec().getContainers().get(0);
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
                volumes = PodFiles.prepare(client, namespace, template.getSpec().getVolumes(), podDir);
            }
            for (Container init : template.getSpec().getInitContainers() == null ? List.<Container>of() : template.getSpec().getInitContainers()) {
                waiting("PodInitializing", "running init container " + init.getName());
                Process p = launcher.start(namespace, name, ip, init, volumes, null, podDir).process();
                int code = p.waitFor();
                if (code != 0) {
                    throw new IOException("init container " + init.getName() + " exited with " + code + " (see " + podDir + ")");
                }
            }
            Long limit = memoryLimit(main());
            if (cgroups.enforced() && limit != null) {
                cgroup = cgroups.create(namespace + "_" + name, limit);
            }
            ContainerLauncher.Launch launch = launcher.start(namespace, name, ip, main(), volumes, cgroup, podDir);
            synchronized (this) {
                process = launch.process();
                startedAt = Instant.now();
                waitingReason = null;
                waitingMessage = null;
                started = false;
                ready = false;
                killReason = null;
                java.util.Arrays.fill(failures, 0);
                java.util.Arrays.fill(successes, 0);
            }
            publish();
            launch.process().onExit().thenAccept(p -> exited(gen, p.exitValue()));
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
        Container c = main();
        Probe startup = Probe.of("startup", c.getStartupProbe(), c);
        Probe liveness = Probe.of("liveness", c.getLivenessProbe(), c);
        Probe readiness = Probe.of("readiness", c.getReadinessProbe(), c);
        synchronized (this) {
            if (startup == null) {
                started = true;
            }
            for (Probe p : new Probe[]{startup, liveness, readiness}) {
                if (p != null) {
                    probeTasks.add(scheduler.scheduleWithFixedDelay(() -> probe(gen, p), p.initialDelaySeconds() * 1000L,
                            p.periodSeconds() * 1000L, TimeUnit.MILLISECONDS));
                }
            }
        }
    }

    private void probe(int gen, Probe p) {
        synchronized (this) {
            if (gen != generation || terminating || process == null || !process.isAlive()) {
                return;
            }
            // Liveness and readiness start once the startup probe has succeeded; startup stops then.
            if (p.kind().equals("startup") == started) {
                return;
            }
        }
        boolean ok = p.check(ip);
        boolean changed = false;
        String kill = null;
        synchronized (this) {
            if (gen != generation || terminating) {
                return;
            }
            int i = switch (p.kind()) {
                case "startup" -> 0;
                case "liveness" -> 1;
                default -> 2;
            };
            failures[i] = ok ? 0 : failures[i] + 1;
            successes[i] = ok ? successes[i] + 1 : 0;
            switch (p.kind()) {
                case "startup" -> {
                    if (ok) {
                        started = true;
                        changed = true;
                    } else if (failures[i] >= p.failureThreshold()) {
                        kill = "startup probe failed " + failures[i] + " times (" + p.path() + ")";
                    }
                }
                case "liveness" -> {
                    if (failures[i] >= p.failureThreshold()) {
                        kill = "liveness probe failed " + failures[i] + " times (" + p.path() + ")";
                    }
                }
                default -> {
                    if (ok && !ready && successes[i] >= p.successThreshold()) {
                        ready = true;
                        changed = true;
                    } else if (!ok && ready && failures[i] >= p.failureThreshold()) {
                        ready = false;
                        changed = true;
                    }
                }
            }
            if (kill != null) {
                killReason = kill;
                ready = false;
            }
        }
        if (kill != null) {
            LOG.info("pod {}/{}: {}: restarting the container", namespace, name, kill);
            stopProcess(Duration.ofSeconds(grace()));
        }
        if (changed || kill != null) {
            publish();
        }
    }

    private void exited(int gen, int code) {
        boolean oom = cgroup != null && cgroup.oomKills() > 0;
        synchronized (this) {
            if (gen != generation) {
                return;
            }
            probeTasks.forEach(t -> t.cancel(false));
            probeTasks.clear();
            started = false;
            ready = false;
            String reason = oom ? "OOMKilled" : killReason != null ? "Error" : code == 0 ? "Completed" : "Error";
            lastTermination = new ContainerStatusBuilder().withNewLastState().withNewTerminated()
                    .withExitCode(code).withReason(reason).withMessage(killReason)
                    .withStartedAt(startedAt == null ? null : startedAt.toString()).withFinishedAt(Instant.now().toString())
                    .endTerminated().endLastState().build();
            if (terminating) {
                return;
            }
            restarts++;
            waitingReason = "CrashLoopBackOff";
            waitingMessage = "exited with " + code + (oom ? " (OOM-killed at the memory limit)" : "")
                    + (killReason != null ? " after: " + killReason : "");
        }
        LOG.info("pod {}/{}: container exited with {}{}", namespace, name, code, oom ? " (OOMKilled)" : "");
        if (cgroup != null) {
            cgroup.delete();
            cgroup = null;
        }
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

    /**
     * Deletes the pod as the control plane and kubelet do together: out of the endpoints first
     * ({@code endpointDelay}, the time a Service takes to notice), then SIGTERM, then SIGKILL
     * after the grace period; finally the Pod object goes.
     */
    void terminate(Duration endpointDelay) {
        synchronized (this) {
            if (terminating) {
                return;
            }
            terminating = true;
            ready = false;
        }
        publish();
        sleep(endpointDelay);
        stopProcess(Duration.ofSeconds(grace()));
        synchronized (this) {
            probeTasks.forEach(t -> t.cancel(false));
            probeTasks.clear();
        }
        if (cgroup != null) {
            cgroup.delete();
        }
        try {
            client.pods().inNamespace(namespace).withName(name).delete();
        } catch (RuntimeException e) {
            LOG.debug("pod {}/{} already gone: {}", namespace, name, e.getMessage());
        }
    }

    /** Stops the process now (simulator shutdown): SIGTERM, a short wait, SIGKILL. */
    void kill() {
        synchronized (this) {
            terminating = true;
        }
        stopProcess(Duration.ofSeconds(5));
        if (cgroup != null) {
            cgroup.delete();
        }
    }

    /** The main container's process while it runs. */
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
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    private long grace() {
        Long g = template.getSpec().getTerminationGracePeriodSeconds();
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
            ContainerStatusBuilder cs = new ContainerStatusBuilder()
                    .withName(main().getName()).withImage(main().getImage()).withRestartCount(restarts)
                    .withReady(ready && !terminating).withStarted(started);
            if (running) {
                cs.withNewState().withNewRunning().withStartedAt(startedAt.toString()).endRunning().endState();
            } else {
                cs.withNewState().withNewWaiting().withReason(waitingReason == null ? "Terminating" : waitingReason)
                        .withMessage(waitingMessage).endWaiting().endState();
            }
            if (lastTermination != null) {
                cs.withLastState(lastTermination.getLastState());
            }
            String now = Instant.now().toString();
            boolean isReady = ready && !terminating;
            status = new PodStatusBuilder()
                    .withPhase(running || restarts > 0 ? "Running" : "Pending")
                    .withPodIP(ip).withHostIP("127.0.0.1")
                    .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(now).endCondition()
                    .addNewCondition().withType("Initialized").withStatus(volumes != null ? "True" : "False").endCondition()
                    .addNewCondition().withType("ContainersReady").withStatus(isReady ? "True" : "False").endCondition()
                    .addNewCondition().withType("Ready").withStatus(isReady ? "True" : "False").endCondition()
                    .withContainerStatuses(cs.build())
                    .build();
        }
        try {
            client.pods().inNamespace(namespace).withName(name).editStatus(p -> {
                p.setStatus(status);
                return p;
            });
        } catch (RuntimeException e) {
            LOG.debug("pod {}/{} status not written: {}", namespace, name, e.getMessage());
        }
    }

    private static Long memoryLimit(Container c) {
        if (c.getResources() == null || c.getResources().getLimits() == null) {
            return null;
        }
        Quantity q = c.getResources().getLimits().get("memory");
        return q == null ? null : Quantity.getAmountInBytes(q).longValue();
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
