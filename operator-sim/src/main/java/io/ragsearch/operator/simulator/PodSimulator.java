package io.ragsearch.operator.simulator;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.operator.naming.ConfigHash;
import io.ragsearch.operator.naming.Labels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The smallest honest stand-in for a kubelet and the Deployment controller, for an API server
 * that has neither (fabric8's mock in CRUD mode): for each Deployment it keeps the desired number
 * of pods of the current template running as real {@code ragsearch-server.jar} processes, each
 * on its own loopback address (127.0.0.N) with the template's ports, env and mounted config; it
 * runs their probes, reports their status, and replaces pods on a template change as the rolling
 * update strategy says (surge and unavailability counted on ready pods). It also collects
 * garbage as Kubernetes does: objects whose owner is gone are deleted.
 */
public final class PodSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PodSimulator.class);

    /**
     * How the simulator is run; {@code endpointDelay}: between a pod leaving the endpoints and its
     * SIGTERM; {@code serverImage}: the server image's docker-archive (null: the plain jar).
     */
    public record Settings(Path serverJar, Path workDir, Duration syncPeriod, Duration endpointDelay, Path serverImage) {
        public static Settings of(Path serverJar, Path workDir) {
            return new Settings(serverJar, workDir, Duration.ofMillis(500), Duration.ofSeconds(2), null);
        }

        /** Pods from this image's file system where this machine can (see {@link PodSimulator#runtime()}). */
        public Settings withServerImage(Path image) {
            return new Settings(serverJar, workDir, syncPeriod, endpointDelay, image);
        }
    }

    /** Where the unpacked image file systems are kept between runs (one per image config digest). */
    static final Path ROOTFS_CACHE = Path.of(System.getProperty("user.home"), ".cache", "ragsearch", "sim-images");

    private final ServiceNames serviceNames;
    private final KubernetesClient client;
    private final Settings settings;
    private final MemoryCgroups cgroups;
    private final MountPoints mountPoints = new MountPoints();
    private final ContainerLauncher launcher;
    private final String runtime;
    private final AddressPool addresses = new AddressPool();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(8, daemon("sim-pods"));
    private final ExecutorService terminations = Executors.newCachedThreadPool(daemon("sim-terminate"));
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(daemon("sim-sync"));
    /** Deployment "namespace/name" → its pods. */
    private final Map<String, List<SimPod>> pods = new ConcurrentHashMap<>();
    private final AtomicInteger podSequence = new AtomicInteger();
    private final OwnerGarbageCollector garbage;

    public PodSimulator(KubernetesClient client, Settings settings) {
        if (!Files.isRegularFile(settings.serverJar())) {
            throw new IllegalArgumentException("server jar not found: " + settings.serverJar()
                    + " (build it: mvn -q -B -DskipTests package)");
        }
        requireMountNamespaces();
        this.client = client;
        this.settings = settings;
        this.cgroups = MemoryCgroups.detect("ragsearch-sim-" + ProcessHandle.current().pid());
        ImageRootfs rootfs = null;
        String runtime;
        if (settings.serverImage() == null) {
            runtime = "plain jar " + settings.serverJar() + " (no server image given)";
        } else {
            String unable = chrootUnavailable();
            if (unable != null) {
                runtime = "plain jar " + settings.serverJar() + " (image " + settings.serverImage() + " not used: " + unable + ")";
            } else {
                try {
                    rootfs = ImageRootfs.unpack(settings.serverImage(), ROOTFS_CACHE);
                    runtime = "image " + rootfs.image() + " (root file system " + rootfs.root() + ")";
                } catch (java.io.IOException e) {
                    runtime = "plain jar " + settings.serverJar() + " (image " + settings.serverImage() + " not used: " + e.getMessage() + ")";
                }
            }
        }
        this.runtime = runtime;
        LOG.info("pod simulator: pods run from the {}", runtime);
        try {
            this.serviceNames = new ServiceNames(settings.workDir().resolve("cluster-dns").resolve("hosts"));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot write the simulator's service names: " + e.getMessage(), e);
        }
        this.launcher = new ContainerLauncher(client, settings.serverJar().toAbsolutePath(), rootfs, mountPoints,
                rootfs == null ? serviceNames.file() : null);
        this.garbage = new OwnerGarbageCollector(client);
    }

    /** What pods run from: the image's file system, or the plain jar and why. */
    public String runtime() {
        return runtime;
    }

    public boolean runsImage() {
        return runtime.startsWith("image ");
    }

    /** chroot into another file system as another user needs root and coreutils' chroot. */
    private static String chrootUnavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "chroot needs root";
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "chroot"))) {
                return null;
            }
        }
        return "no chroot on PATH";
    }

    /** Pods see their volumes at the container's paths only through a private mount namespace. */
    private static void requireMountNamespaces() {
        try {
            Process p = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "true")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("the pod simulator needs private mount namespaces (unshare --mount; root): " + out);
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the pod simulator needs unshare (util-linux): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    public void start() {
        loop.scheduleWithFixedDelay(this::syncQuietly, 0, settings.syncPeriod().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether pods run under their memory limits; otherwise why not. */
    public String memoryLimits() {
        return cgroups.enforced() ? "enforced (a memory cgroup per pod; OOM kills reported)"
                : "NOT enforced: " + cgroups.unavailableReason().orElse("");
    }

    public boolean memoryLimitsEnforced() {
        return cgroups.enforced();
    }

    /** The main containers' processes now running, for checks of what they run as. */
    public List<ProcessHandle> processes() {
        return pods.values().stream().flatMap(Collection::stream).map(SimPod::processHandle)
                .flatMap(java.util.Optional::stream).toList();
    }

    /** Processes started and still running, for checks that nothing is left behind. */
    public long runningProcesses() {
        return pods.values().stream().flatMap(Collection::stream).filter(SimPod::processAlive).count();
    }

    /** Where a pod's container output goes. */
    public Path logOf(String namespace, String pod) {
        return settings.workDir().resolve("pods").resolve(namespace + "_" + pod);
    }

    private void syncQuietly() {
        try {
            sync();
        } catch (RuntimeException e) {
            LOG.warn("simulator sync: {}", e.getMessage());
        }
    }

    private void sync() {
        garbage.collect();
        serviceNames.sync(client);
        List<Deployment> deployments = client.apps().deployments().inAnyNamespace().list().getItems();
        Set<String> seen = deployments.stream().map(PodSimulator::key).collect(Collectors.toSet());
        for (String gone : new ArrayList<>(pods.keySet())) {
            if (!seen.contains(gone)) {
                List<SimPod> left = pods.remove(gone);
                left.forEach(p -> terminateAsync(p));
            }
        }
        for (Deployment d : deployments) {
            reconcile(d);
        }
    }

    /** One step of a rolling update toward the Deployment's template and replica count. */
    private void reconcile(Deployment d) {
        String key = key(d);
        List<SimPod> all = pods.computeIfAbsent(key, k -> new ArrayList<>());
        all.removeIf(SimPod::terminating);
        String hash = templateHash(d);
        int replicas = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        int maxSurge = 1;
        int maxUnavailable = 0;
        if (d.getSpec().getStrategy() != null && d.getSpec().getStrategy().getRollingUpdate() != null) {
            var ru = d.getSpec().getStrategy().getRollingUpdate();
            maxSurge = resolve(ru.getMaxSurge(), replicas, true, 1);
            maxUnavailable = resolve(ru.getMaxUnavailable(), replicas, false, 0);
        }
        if (maxSurge == 0 && maxUnavailable == 0) {
            maxUnavailable = 1; // as Kubernetes does: a roll must be able to make progress
        }
        List<SimPod> current = all.stream().filter(p -> p.templateHash.equals(hash)).toList();
        List<SimPod> old = all.stream().filter(p -> !p.templateHash.equals(hash)).toList();
        long readyAll = all.stream().filter(SimPod::ready).count();
        int total = all.size();
        int toStart = Math.min(replicas - current.size(), replicas + maxSurge - total);
        for (int i = 0; i < toStart; i++) {
            all.add(startPod(d, hash));
        }
        // Old pods go while enough pods stay ready; pods that are not ready count for nothing.
        long minReady = replicas - maxUnavailable;
        long removable = readyAll - minReady;
        List<SimPod> surplus = new ArrayList<>(old);
        if (old.isEmpty() && current.size() > replicas) {
            surplus.addAll(current.subList(replicas, current.size()));
        }
        surplus.sort((a, b) -> Boolean.compare(a.ready(), b.ready())); // not-ready ones first
        for (SimPod p : surplus) {
            if (!p.ready()) {
                all.remove(p);
                terminateAsync(p);
            } else if (removable > 0) {
                removable--;
                all.remove(p);
                terminateAsync(p);
            }
        }
    }

    private SimPod startPod(Deployment d, String hash) {
        String name = d.getMetadata().getName() + "-" + hash.substring(0, Math.min(8, hash.length())) + "-"
                + Integer.toString(podSequence.incrementAndGet(), 36);
        String ip = addresses.take();
        SimPod pod = new SimPod(client, new SimPod.Identity(d.getMetadata().getNamespace(), name, ip, hash), d.getSpec().getTemplate(),
                launcher, cgroups, scheduler, settings.workDir());
        LOG.info("pod {}/{} on {}: starting", pod.namespace, name, ip);
        pod.start();
        return pod;
    }

    private void terminateAsync(SimPod p) {
        terminations.execute(() -> {
            p.terminate(settings.endpointDelay());
            addresses.release(p.ip);
            LOG.info("pod {}/{}: terminated", p.namespace, p.name);
        });
    }

    /** Stops every process it started and removes what it created. */
    @Override
    public void close() {
        loop.shutdownNow();
        List<SimPod> all = pods.values().stream().flatMap(Collection::stream).toList();
        all.parallelStream().forEach(SimPod::kill);
        terminations.shutdownNow();
        scheduler.shutdownNow();
        try {
            terminations.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        all.forEach(SimPod::kill); // pods a termination thread had not finished
        cgroups.close();
        mountPoints.close();
    }

    /** The template's identity: the operator's config hash when present, else a hash of the template. */
    static String templateHash(Deployment d) {
        Map<String, String> annotations = d.getSpec().getTemplate().getMetadata() == null ? null
                : d.getSpec().getTemplate().getMetadata().getAnnotations();
        if (annotations != null && annotations.get(Labels.CONFIG_HASH) != null) {
            return annotations.get(Labels.CONFIG_HASH);
        }
        return ConfigHash.of(Serialization.asJson(d.getSpec().getTemplate()));
    }

    private static int resolve(IntOrString v, int replicas, boolean roundUp, int dflt) {
        if (v == null) {
            return dflt;
        }
        if (v.getIntVal() != null) {
            return v.getIntVal();
        }
        String s = v.getStrVal().strip();
        if (s.endsWith("%")) {
            double share = Double.parseDouble(s.substring(0, s.length() - 1)) / 100.0 * replicas;
            return (int) (roundUp ? Math.ceil(share) : Math.floor(share));
        }
        return Integer.parseInt(s);
    }

    private static String key(Deployment d) {
        return d.getMetadata().getNamespace() + "/" + d.getMetadata().getName();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
