package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Our kubelet: one node of the cluster on this machine. It registers its Node (Ready, capacity,
 * InternalIP 127.0.0.1) and keeps it fresh (a Lease in {@code kube-node-lease}, the Ready
 * condition's heartbeat), binds the pods no scheduler placed (there is none) through their
 * {@code binding}, runs each pod bound to it as real processes on a loopback address of its
 * own ({@link SimPod}: init containers, the main container in a memory cgroup at its limit and
 * a cpu cgroup at its CPU limit where the machine allows, in-place resizes of both, probes,
 * restarts, OOM kills), writes {@code pods/status}, and once a terminating pod's process
 * has stopped, deletes the Pod with grace period 0 — what the API server waits for. Like a
 * kubelet it serves the resource metrics metrics-server scrapes ({@link KubeletEndpoint}: the
 * CPU time and memory working set of its pods' cgroups, {@link ResourceMetrics}) on HTTPS at the
 * port its Node's status names. It serves a real API server: the controllers that make its pods
 * are the control plane's.
 */
public final class NodeAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
    public static final String DEFAULT_NODE = "ragsearch-node";
    /** Where a pod finds its jar in plain-jar mode: a directory of the agent's, bound in its mount namespace. */
    static final String IMAGE_DIR = "/etc/ragsearch-sim-image";
    private static final Duration HEARTBEAT = Duration.ofSeconds(10);
    private static final AtomicInteger AGENTS = new AtomicInteger();

    /**
     * How pods are run; {@code endpointDelay}: between a pod leaving the endpoints and its SIGTERM;
     * {@code serverImage}: the server image's docker-archive (null: the plain jar).
     */
    public record Settings(Path serverJar, Path workDir, Duration syncPeriod, Duration endpointDelay, Path serverImage,
                           Map<String, Path> programs) {
        public static Settings of(Path serverJar, Path workDir) {
            return new Settings(serverJar, workDir, Duration.ofMillis(500), Duration.ofSeconds(2), null, Map.of());
        }

        /** Pods from this image's file system where this machine can (see {@link NodeAgent#runtime()}). */
        public Settings withServerImage(Path image) {
            return new Settings(serverJar, workDir, syncPeriod, endpointDelay, image, programs);
        }

        /**
         * Containers of this image repository (any tag) run this jar on this machine's JVM, the
         * image's entrypoint being that jar's CLI — e.g. {@code ragsearch/operator} and
         * ragsearch-operator.jar, so the chart's operator pods run here. Every other image runs the server.
         * {@code repository:tag} maps that tag only, before the repository's own entry: the previous
         * operator's jar beside the current one for an upgrade. Jars are linked into one directory by
         * file name, so two programs' jars need different names.
         */
        public Settings withProgram(String imageRepository, Path jar) {
            Map<String, Path> more = new java.util.TreeMap<>(programs);
            more.put(imageRepository, jar);
            return new Settings(serverJar, workDir, syncPeriod, endpointDelay, serverImage, Map.copyOf(more));
        }
    }

    /** Where the unpacked image file systems are kept between runs (one per image config digest). */
    static final Path ROOTFS_CACHE = Path.of(System.getProperty("user.home"), ".cache", "ragsearch", "sim-images");

    private final KubernetesClient client;
    private final Settings settings;
    private final String node;
    private final NodeRegistration registration;
    private final ServiceNames serviceNames;
    private final MemoryCgroups cgroups;
    private final CpuAccounting cpu;
    private final CpuCgroups cpuLimits;
    private KubeletEndpoint kubelet;
    private final MountPoints mountPoints = new MountPoints();
    private final ContainerLauncher launcher;
    private final String runtime;
    private final AddressPool addresses = new AddressPool();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(8, daemon("node-pods"));
    private final ExecutorService terminations = Executors.newCachedThreadPool(daemon("node-terminate"));
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(daemon("node-sync"));
    /** Pod uid → the pod running here. */
    private final Map<String, SimPod> pods = new ConcurrentHashMap<>();
    /** Stops the pods' processes if the JVM ends without {@link #close()} (a test that failed badly, Ctrl-C). */
    private final Thread shutdownHook = new Thread(this::killAll, "node-agent-down");

    public NodeAgent(KubernetesClient client, Settings settings, String node) {
        if (!Files.isRegularFile(settings.serverJar())) {
            throw new IllegalArgumentException("server jar not found: " + settings.serverJar()
                    + " (build it: mvn -q -B -DskipTests package)");
        }
        settings.programs().forEach((image, jar) -> {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("jar for image " + image + " not found: " + jar
                        + " (build it: mvn -q -B -DskipTests package)");
            }
        });
        requireMountNamespaces();
        this.client = client;
        this.settings = settings;
        this.node = node;
        this.registration = new NodeRegistration(client, node);
        String cgroup = "ragsearch-node-" + ProcessHandle.current().pid() + "-" + AGENTS.incrementAndGet();
        this.cgroups = MemoryCgroups.detect(cgroup);
        this.cpu = CpuAccounting.detect(cgroup);
        this.cpuLimits = CpuCgroups.detect(cgroup);
        ImageRootfs rootfs = null;
        String runtime;
        String plain = "plain jar " + settings.serverJar();
        if (settings.serverImage() == null) {
            runtime = plain + " (no server image given)";
        } else {
            String unable = chrootUnavailable();
            if (unable != null) {
                runtime = plain + " (image " + settings.serverImage() + " not used: " + unable + ")";
            } else {
                try {
                    rootfs = ImageRootfs.unpack(settings.serverImage(), ROOTFS_CACHE);
                    runtime = "image " + rootfs.image() + " (root file system " + rootfs.root() + ")";
                } catch (IOException e) {
                    runtime = plain + " (image " + settings.serverImage() + " not used: " + e.getMessage() + ")";
                }
            }
        }
        this.runtime = runtime;
        LOG.info("node {}: pods run from the {}", node, runtime);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            this.serviceNames = new ServiceNames(settings.workDir().resolve("cluster-dns").resolve("hosts"));
            Path imageDir = settings.workDir().resolve("image");
            Path jar = rootfs == null ? imageOfJar(settings.serverJar(), imageDir) : null;
            Map<String, Path> programs = new java.util.TreeMap<>();
            for (var e : settings.programs().entrySet()) {
                programs.put(e.getKey(), imageOfJar(e.getValue(), imageDir));
            }
            this.launcher = new ContainerLauncher(client, new ContainerLauncher.Programs(jar, rootfs, programs), mountPoints,
                    serviceNames.file());
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare node " + node + ": " + e.getMessage(), e);
        }
    }

    /**
     * The plain jar as the pod's "image": a copy (a hard link where it can) in a directory of the
     * agent's, which each pod sees at {@link #IMAGE_DIR}. Pods never run it from the checkout's
     * path: a pod's own mounts (its /tmp emptyDir) may hide that path, and a rebuild mid-test would
     * change what a running pod restarts with.
     */
    static Path imageOfJar(Path serverJar, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path target = dir.resolve(serverJar.getFileName());
        Files.deleteIfExists(target);
        try {
            Files.createLink(target, serverJar.toAbsolutePath());
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(serverJar, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    public String node() {
        return node;
    }

    /** What pods run from: the image's file system, or the plain jar and why. */
    public String runtime() {
        return runtime;
    }

    public boolean runsImage() {
        return runtime.startsWith("image ");
    }

    /** Whether pods run under their memory limits; otherwise why not. */
    public String memoryLimits() {
        return cgroups.enforced() ? "enforced (a memory cgroup per pod; OOM kills reported)"
                : "NOT enforced: " + cgroups.unavailableReason().orElse("");
    }

    public boolean memoryLimitsEnforced() {
        return cgroups.enforced();
    }

    /** Whether pods run under their CPU limits (a CFS quota, rewritten by an in-place resize); otherwise why not. */
    public String cpuLimits() {
        return cpuLimits.enforced() ? "enforced (a cpu cgroup per pod, its quota the limit)"
                : "NOT enforced: " + cpuLimits.unavailableReason().orElse("");
    }

    public boolean cpuLimitsEnforced() {
        return cpuLimits.enforced();
    }

    /** Registers the Node, then keeps it fresh and its pods in step with the API server. */
    public void start() {
        try {
            kubelet = KubeletEndpoint.start(settings.workDir().resolve("kubelet"), this::resourceMetrics);
            registration.kubeletPort(kubelet.port());
        } catch (IOException e) {
            LOG.warn("node {}: no resource metrics endpoint ({}); metrics-server will find nothing here", node, e.getMessage());
        }
        registration.register();
        loop.scheduleWithFixedDelay(this::syncQuietly, 0, settings.syncPeriod().toMillis(), TimeUnit.MILLISECONDS);
        loop.scheduleWithFixedDelay(this::heartbeatQuietly, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The main containers' processes now running, for checks of what they run as. */
    public List<ProcessHandle> processes() {
        return pods.values().stream().map(SimPod::processHandle).flatMap(Optional::stream).toList();
    }

    /** Processes started and still running, for checks that nothing is left behind. */
    public long runningProcesses() {
        return pods.values().stream().filter(SimPod::processAlive).count();
    }

    /** The loopback addresses of the pods running here, by "namespace/name" (what a CNI would report). */
    public Map<String, String> addresses() {
        Map<String, String> out = new java.util.TreeMap<>();
        pods.values().forEach(p -> out.put(p.namespace + "/" + p.name, p.ip));
        return out;
    }

    /** The kubelet endpoint's port (0 when it could not start): what the Node's status names for metrics-server. */
    public int kubeletPort() {
        return kubelet == null ? 0 : kubelet.port();
    }

    /** {@code /metrics/resource} now: the agent's cgroups as the node, each running pod's main container. */
    String resourceMetrics() {
        java.util.Optional<ResourceMetrics.NodeUsage> nodeUsage = cpu.node().flatMap(c -> cgroups.dir().flatMap(m -> {
            java.util.OptionalLong nanos = ResourceMetrics.cpuNanos(c);
            java.util.OptionalLong memory = ResourceMetrics.workingSetBytes(m);
            return nanos.isPresent() && memory.isPresent()
                    ? java.util.Optional.of(new ResourceMetrics.NodeUsage(nanos.getAsLong() / 1e9, memory.getAsLong()))
                    : java.util.Optional.empty();
        }));
        return ResourceMetrics.exposition(nodeUsage,
                pods.values().stream().map(SimPod::usage).flatMap(java.util.Optional::stream).toList(), java.time.Instant.now());
    }

    private void heartbeatQuietly() {
        try {
            registration.heartbeat();
        } catch (RuntimeException e) {
            LOG.warn("node {} heartbeat: {}", node, e.getMessage());
        }
    }

    private void syncQuietly() {
        try {
            sync();
        } catch (RuntimeException e) {
            LOG.warn("node {} sync: {}", node, e.getMessage());
        }
    }

    /** One pass over every pod: bind what is unplaced, start what is new here, stop what is going. */
    void sync() {
        serviceNames.sync(client);
        Set<String> present = new HashSet<>();
        for (Pod p : client.pods().inAnyNamespace().list().getItems()) {
            String placed = p.getSpec().getNodeName();
            if (placed == null || placed.isEmpty()) {
                if (Placement.fits(p, registration.labels())) {
                    String tooLarge = Placement.tooLarge(p, NodeRegistration.allocatableMemoryBytes(),
                            NodeRegistration.allocatableCpuMillis());
                    if (tooLarge == null) {
                        bind(p);
                    } else {
                        unschedulable(p, tooLarge);
                    }
                }
                continue;
            }
            if (!node.equals(placed)) {
                continue;
            }
            String uid = p.getMetadata().getUid();
            present.add(uid);
            SimPod known = pods.get(uid);
            if (p.getMetadata().getDeletionTimestamp() != null) {
                if (known == null) {
                    deleteNow(p.getMetadata().getNamespace(), p.getMetadata().getName()); // nothing of it runs here
                } else {
                    terminateAsync(known);
                }
            } else if (known == null && !Placement.finished(p)) {
                admit(p);
            } else if (known != null) {
                known.sync(p, nodeFor(known));
            }
        }
        for (var e : pods.entrySet()) {
            if (!present.contains(e.getKey())) {
                // the Pod object went without a graceful deletion (force-deleted): its process goes now
                SimPod gone = pods.remove(e.getKey());
                if (gone != null) {
                    terminations.execute(() -> {
                        gone.kill();
                        addresses.release(gone.ip);
                    });
                }
            }
        }
    }

    /** The node's allocatable and what its other pods hold, as a resize of {@code pod} sees them. */
    private PodResize.Node nodeFor(SimPod pod) {
        long memory = 0;
        long cpu = 0;
        for (SimPod other : pods.values()) {
            if (other != pod && !other.terminating()) {
                long[] held = other.allocatedRequests();
                memory += held[0];
                cpu += held[1];
            }
        }
        return new PodResize.Node(NodeRegistration.allocatableMemoryBytes(), NodeRegistration.allocatableCpuMillis(), memory, cpu);
    }

    private void bind(Pod p) {
        String ns = p.getMetadata().getNamespace();
        String name = p.getMetadata().getName();
        try {
            client.bindings().inNamespace(ns).resource(new BindingBuilder()
                    .withNewMetadata().withName(name).withNamespace(ns).withUid(p.getMetadata().getUid()).endMetadata()
                    .withNewTarget().withApiVersion("v1").withKind("Node").withName(node).endTarget()
                    .build()).create();
            LOG.info("pod {}/{} bound to {}", ns, name, node);
        } catch (RuntimeException e) {
            // another agent bound it first, or it went: the next pass sees which
            LOG.debug("pod {}/{} not bound: {}", ns, name, e.getMessage());
        }
    }

    /** What a scheduler writes on a pod no node can hold: PodScheduled False, Unschedulable (once; the pod stays Pending). */
    private void unschedulable(Pod p, String message) {
        boolean said = p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                .anyMatch(c -> "PodScheduled".equals(c.getType()) && "Unschedulable".equals(c.getReason()));
        if (said) {
            return;
        }
        String ns = p.getMetadata().getNamespace();
        String name = p.getMetadata().getName();
        try {
            client.pods().inNamespace(ns).withName(name).editStatus(x -> {
                if (x.getStatus() == null) {
                    x.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
                }
                if (x.getStatus().getConditions() == null) {
                    x.getStatus().setConditions(new java.util.ArrayList<>());
                }
                x.getStatus().setPhase("Pending");
                x.getStatus().getConditions().removeIf(c -> "PodScheduled".equals(c.getType()));
                x.getStatus().getConditions().add(new io.fabric8.kubernetes.api.model.PodConditionBuilder().withType("PodScheduled")
                        .withStatus("False").withReason("Unschedulable").withMessage(message)
                        .withLastTransitionTime(java.time.Instant.now().toString()).build());
                return x;
            });
            LOG.info("pod {}/{} not placed: {}", ns, name, message);
        } catch (RuntimeException e) {
            LOG.debug("pod {}/{} unschedulable, not written: {}", ns, name, e.getMessage());
        }
    }

    private void admit(Pod p) {
        List<Integer> ports = p.getSpec().getContainers().stream()
                .flatMap(c -> c.getPorts() == null ? java.util.stream.Stream.empty() : c.getPorts().stream())
                .map(io.fabric8.kubernetes.api.model.ContainerPort::getContainerPort).filter(java.util.Objects::nonNull).toList();
        String ip = addresses.take(candidate -> AddressPool.portsFree(candidate, ports));
        SimPod pod = new SimPod(client, new SimPod.Identity(p.getMetadata().getNamespace(), p.getMetadata().getName(), p.getMetadata().getUid(), ip),
                p.getSpec(), launcher, cgroups, cpu, cpuLimits, scheduler, settings.workDir());
        pods.put(p.getMetadata().getUid(), pod);
        LOG.info("pod {}/{} on {}: starting", pod.namespace, pod.name, ip);
        pod.start();
    }

    /**
     * What a graceful deletion sets off, for a server that cannot mark one (fabric8's mock): the
     * pod leaves the endpoints, its process stops within its grace period, then the object goes.
     */
    void terminate(String namespace, String name) {
        Optional<SimPod> running = pods.values().stream().filter(p -> p.namespace.equals(namespace) && p.name.equals(name)).findFirst();
        if (running.isPresent()) {
            terminateAsync(running.get());
        } else {
            deleteNow(namespace, name);
        }
    }

    /** The main container's process of a pod running here, if it runs now (what a test kills to crash it). */
    public Optional<ProcessHandle> process(String namespace, String name) {
        return pod(namespace, name).flatMap(SimPod::processHandle);
    }

    /** The pod's state here: empty while it is not (yet) running on this node. */
    Optional<SimPod> pod(String namespace, String name) {
        return pods.values().stream().filter(p -> p.namespace.equals(namespace) && p.name.equals(name)).findFirst();
    }

    private void terminateAsync(SimPod p) {
        if (!p.beginTermination()) {
            return;
        }
        terminations.execute(() -> {
            p.terminate(settings.endpointDelay());
            pods.values().remove(p);
            addresses.release(p.ip);
            LOG.info("pod {}/{}: terminated", p.namespace, p.name);
        });
    }

    private void deleteNow(String namespace, String name) {
        try {
            client.pods().inNamespace(namespace).withName(name).withGracePeriod(0).delete();
        } catch (RuntimeException e) {
            LOG.debug("pod {}/{} already gone: {}", namespace, name, e.getMessage());
        }
    }

    /** Stops every process it started and removes what it created; the Node object stays, as a kubelet leaves it. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs anyway
        }
        loop.shutdownNow();
        List<SimPod> all = killAll();
        terminations.shutdownNow();
        scheduler.shutdownNow();
        try {
            terminations.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        all.forEach(SimPod::kill); // pods a termination thread had not finished
        if (kubelet != null) {
            kubelet.close();
        }
        cgroups.close();
        cpu.close();
        cpuLimits.close();
        mountPoints.close();
    }

    private List<SimPod> killAll() {
        List<SimPod> all = List.copyOf(pods.values());
        all.parallelStream().forEach(SimPod::kill);
        return all;
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
                throw new IllegalStateException("the node agent needs private mount namespaces (unshare --mount; root): " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("the node agent needs unshare (util-linux): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
