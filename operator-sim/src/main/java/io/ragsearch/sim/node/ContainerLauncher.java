package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.contract.Environment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts one container of a pod as a process on this machine, inside the pod's memory cgroup
 * when there is one, in a private mount namespace, with the container's args and env. Two ways:
 * <ul>
 * <li>from the image's unpacked root filesystem ({@link ImageRootfs}): the volume mounts bound
 * at their paths inside it, {@code /proc}, {@code /sys} and {@code /dev} from this machine, the
 * root read-only when the container says so, then {@code chroot} as the image's user and its
 * entrypoint — the image's own JRE, files and user, as a container runtime would;</li>
 * <li>the fallback: the server jar on this machine's JVM ({@code java -jar}, the image's
 * entrypoint being the same CLI), the volume mounts bound at the same paths of this machine's
 * root filesystem. The jar is the node agent's copy, seen at {@link NodeAgent#IMAGE_DIR} (bound
 * before the pod's own mounts, which may hide where it lies on this machine).</li>
 * </ul>
 */
final class ContainerLauncher {

    /**
     * What a container runs, by its image: {@code byImage}'s jar for those image repositories, or
     * for one tag of a repository ({@code repository:tag}, which wins over the repository's own entry:
     * two versions of a program side by side, as an upgrade has them) — the agent's copies — otherwise
     * the server: from {@code rootfs}, or, when that is null, from {@code serverJar} (the agent's copy
     * of the plain-jar fallback; null when pods run from the image).
     */
    record Programs(Path serverJar, ImageRootfs rootfs, Map<String, Path> byImage) {
        /** The jar for this image reference (repository, then {@code :tag} or {@code @digest}), if one is mapped. */
        Path jarFor(String image) {
            if (image == null) {
                return null;
            }
            String tagged = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
            String repository = tagged;
            int colon = tagged.lastIndexOf(':');
            if (colon > tagged.lastIndexOf('/')) {
                repository = tagged.substring(0, colon);
                Path forTag = byImage.get(tagged);
                if (forTag != null) {
                    return forTag;
                }
            }
            return byImage.get(repository);
        }
    }

    /** Where mount targets that did not exist on this machine were created (removed at the end if empty). */
    private final MountPoints mountPoints;
    private final Programs programs;
    private final KubernetesClient client;
    /** Where a pod sees the simulator's Service names (a directory bound in its mount namespace). */
    static final String SIM_DNS_DIR = "/etc/ragsearch-sim-dns";
    /** The simulator's Service names (its cluster DNS), or null for none. */
    private final Path hostsFile;

    ContainerLauncher(KubernetesClient client, Programs programs, MountPoints mountPoints, Path hostsFile) {
        this.client = client;
        this.hostsFile = hostsFile;
        this.programs = programs;
        this.mountPoints = mountPoints;
    }

    record Launch(Process process, Path log) {
    }

    Launch start(String namespace, String podName, String podIp, Container c, Map<String, Path> volumes,
                 MemoryCgroups.Limited cgroup, Path podDir) throws IOException {
        return start(namespace, podName, podIp, c, volumes, cgroup, List.of(), podDir);
    }

    /** @param others the container's other cgroups (CPU accounting, CPU limit), joined after the memory one */
    Launch start(String namespace, String podName, String podIp, Container c, Map<String, Path> volumes,
                 MemoryCgroups.Limited cgroup, List<Path> others, Path podDir) throws IOException {
        Map<String, String> env = environment(namespace, podName, podIp, c);
        Path mapped = programs.jarFor(c.getImage());
        ImageRootfs rootfs = mapped == null ? programs.rootfs() : null;
        Path jar = mapped != null ? mapped : programs.serverJar();
        String inner = rootfs == null ? onThisMachine(c, volumes, podDir, jar) : inImageRootfs(c, volumes, rootfs);
        Path innerScript = podDir.resolve(c.getName() + "-inner.sh");
        Files.writeString(innerScript, inner);
        StringBuilder outer = new StringBuilder("set -e\n");
        if (cgroup != null) {
            // Into the cgroup before the JVM starts: it sizes its heap from the limit it finds there.
            outer.append("echo $$ > ").append(q(cgroup.procs().toString())).append('\n');
        }
        for (Path other : others) {
            outer.append("echo $$ > ").append(q(other.resolve("cgroup.procs").toString())).append('\n');
        }
        // The pod's process dies with the agent, however the agent ends (kept across the execs below,
        // cleared only where the image's user differs: then the agent's shutdown hook stops it).
        outer.append("exec setpriv --pdeathsig KILL unshare --mount --propagation private /bin/sh ").append(q(innerScript.toString())).append('\n');
        Path outerScript = podDir.resolve(c.getName() + "-launch.sh");
        Files.writeString(outerScript, outer.toString());

        Path log = podDir.resolve(c.getName() + ".log");
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", outerScript.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().clear();
        if (rootfs != null) {
            // The image's environment (PATH, LANG, JVM flags), then the container's over it, as a runtime merges them.
            pb.environment().putAll(rootfs.env());
        }
        pb.environment().putIfAbsent("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env);
        Files.writeString(log, "---- " + java.time.Instant.now() + " start " + c.getName() + " on " + podIp
                        + (rootfs == null ? " (plain jar " + jar.getFileName() + ")" : " (image " + rootfs.image() + ")") + "\n",
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return new Launch(pb.start(), log);
    }

    /** The host directory a mount binds: its volume's, or a path below it (subPath). */
    private static Path source(Container c, VolumeMount m, Map<String, Path> volumes) throws IOException {
        Path source = volumes.get(m.getName());
        if (source == null) {
            throw new IOException("container " + c.getName() + " mounts unknown volume " + m.getName());
        }
        return m.getSubPath() != null && !m.getSubPath().isBlank() ? source.resolve(m.getSubPath()) : source;
    }

    /** The fallback: mounts over this machine's paths, the container's jar on this JVM. */
    private String onThisMachine(Container c, Map<String, Path> volumes, Path podDir, Path jar) throws IOException {
        StringBuilder inner = new StringBuilder("set -e\n");
        List<VolumeMount> mounts = new ArrayList<>(c.getVolumeMounts() == null ? List.of() : c.getVolumeMounts());
        // Mounts whose target hides a source (e.g. /tmp over a pod directory under /tmp) go last.
        mounts.sort(Comparator.comparing((VolumeMount m) -> podDir.toAbsolutePath().startsWith(m.getMountPath()))
                .thenComparing(VolumeMount::getMountPath));
        // First, before a pod's /tmp can hide the agent's directories: the jar, then the Service names, at paths of their own.
        mountPoints.ensure(Path.of(NodeAgent.IMAGE_DIR));
        inner.append("mount --bind ").append(q(jar.getParent().toString())).append(' ').append(q(NodeAgent.IMAGE_DIR)).append('\n');
        inner.append("mount -o remount,bind,ro ").append(q(NodeAgent.IMAGE_DIR)).append('\n');
        if (hostsFile != null) {
            mountPoints.ensure(Path.of(SIM_DNS_DIR));
            inner.append("mount --bind ").append(q(hostsFile.getParent().toString())).append(' ').append(q(SIM_DNS_DIR)).append('\n');
            inner.append("mount -o remount,bind,ro ").append(q(SIM_DNS_DIR)).append('\n');
        }
        for (VolumeMount m : mounts) {
            Path source = source(c, m, volumes);
            mountPoints.ensure(Path.of(m.getMountPath()));
            inner.append("mount --bind ").append(q(source.toString())).append(' ').append(q(m.getMountPath())).append('\n');
            if (Boolean.TRUE.equals(m.getReadOnly())) {
                inner.append("mount -o remount,bind,ro ").append(q(m.getMountPath())).append('\n');
            }
        }
        if (c.getSecurityContext() != null && Boolean.TRUE.equals(c.getSecurityContext().getReadOnlyRootFilesystem())) {
            inner.append("mount -o remount,bind,ro /\n");
        }
        inner.append("exec ").append(q(javaBinary()));
        if (hostsFile != null) {
            // Service names resolve as cluster DNS would (ServiceNames); the file is read at each lookup.
            inner.append(' ').append(q("-Djdk.net.hosts.file=" + SIM_DNS_DIR + "/" + hostsFile.getFileName()));
        }
        inner.append(" -jar ").append(q(NodeAgent.IMAGE_DIR + "/" + jar.getFileName()));
        for (String arg : c.getArgs() == null ? List.<String>of() : c.getArgs()) {
            inner.append(' ').append(q(arg));
        }
        inner.append('\n');
        return inner.toString();
    }

    /**
     * From the image: the shared unpacked root bound onto itself (so that making it read-only
     * stays inside this pod's mount namespace), the pod's volumes at their paths inside it, then
     * chroot as the image's user. Writable volumes are opened to every user, as the kubelet makes
     * emptyDirs (0777): the image's user is not this machine's root.
     */
    private String inImageRootfs(Container c, Map<String, Path> volumes, ImageRootfs rootfs) throws IOException {
        String root = rootfs.root().toString();
        StringBuilder inner = new StringBuilder("set -e\n");
        for (String dir : List.of("proc", "sys", "dev")) {
            inner.append("mkdir -p ").append(q(root + "/" + dir)).append('\n');
        }
        List<VolumeMount> mounts = new ArrayList<>(c.getVolumeMounts() == null ? List.of() : c.getVolumeMounts());
        mounts.sort(Comparator.comparing(VolumeMount::getMountPath));
        for (VolumeMount m : mounts) {
            // Mount points are directories in the shared copy; created before it turns read-only.
            inner.append("mkdir -p ").append(q(root + m.getMountPath())).append('\n');
        }
        inner.append("mount --bind ").append(q(root)).append(' ').append(q(root)).append('\n');
        for (String dir : List.of("proc", "sys", "dev")) {
            inner.append("mount --rbind /").append(dir).append(' ').append(q(root + "/" + dir)).append('\n');
        }
        for (VolumeMount m : mounts) {
            Path source = source(c, m, volumes);
            boolean readOnly = Boolean.TRUE.equals(m.getReadOnly());
            if (!readOnly && Files.isDirectory(source)) {
                inner.append("chmod 0777 ").append(q(source.toString())).append('\n');
            }
            inner.append("mount --bind ").append(q(source.toString())).append(' ').append(q(root + m.getMountPath())).append('\n');
            if (readOnly) {
                inner.append("mount -o remount,bind,ro ").append(q(root + m.getMountPath())).append('\n');
            }
        }
        if (c.getSecurityContext() != null && Boolean.TRUE.equals(c.getSecurityContext().getReadOnlyRootFilesystem())) {
            inner.append("mount -o remount,bind,ro ").append(q(root)).append('\n');
        }
        inner.append("exec chroot");
        String user = user(c, rootfs);
        if (!user.isEmpty()) {
            inner.append(" --userspec=").append(q(user));
        }
        inner.append(' ').append(q(root));
        for (String part : rootfs.entrypoint()) {
            inner.append(' ').append(q(part));
        }
        for (String arg : c.getArgs() == null ? List.<String>of() : c.getArgs()) {
            inner.append(' ').append(q(arg));
        }
        inner.append('\n');
        return inner.toString();
    }

    /** The container's runAsUser/runAsGroup when it sets them, else the image's USER (uid[:gid]). */
    private String user(Container c, ImageRootfs rootfs) {
        var sc = c.getSecurityContext();
        if (sc != null && sc.getRunAsUser() != null) {
            return sc.getRunAsUser() + ":" + (sc.getRunAsGroup() != null ? sc.getRunAsGroup() : 0);
        }
        String image = rootfs.user();
        return image.isEmpty() || image.contains(":") ? image : image + ":0";
    }

    /**
     * The container's env resolved as the kubelet would (values, Secret and ConfigMap keys, the
     * pod's own fields). Pods share this machine's network, so a bind to every interface becomes
     * a bind to the pod's own loopback address — what 0.0.0.0 means inside a pod's network namespace.
     */
    private Map<String, String> environment(String namespace, String podName, String podIp, Container c) throws IOException {
        Map<String, String> env = new LinkedHashMap<>(apiServerEnvironment());
        for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
            if (e.getValueFrom() == null) {
                env.put(e.getName(), e.getValue() == null ? "" : e.getValue());
            } else if (e.getValueFrom().getSecretKeyRef() != null) {
                var ref = e.getValueFrom().getSecretKeyRef();
                Secret s = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
                String value = s == null ? null : secretValue(s, ref.getKey());
                if (value == null) {
                    throw new IOException("env " + e.getName() + ": secret " + ref.getName() + " key " + ref.getKey() + " not found");
                }
                env.put(e.getName(), value);
            } else if (e.getValueFrom().getConfigMapKeyRef() != null) {
                var ref = e.getValueFrom().getConfigMapKeyRef();
                var cm = client.configMaps().inNamespace(namespace).withName(ref.getName()).get();
                String value = cm == null || cm.getData() == null ? null : cm.getData().get(ref.getKey());
                if (value == null) {
                    throw new IOException("env " + e.getName() + ": configmap " + ref.getName() + " key " + ref.getKey() + " not found");
                }
                env.put(e.getName(), value);
            } else if (e.getValueFrom().getFieldRef() != null) {
                String path = e.getValueFrom().getFieldRef().getFieldPath();
                env.put(e.getName(), switch (path) {
                    case "status.podIP" -> podIp;
                    case "metadata.name" -> podName;
                    case "metadata.namespace" -> namespace;
                    default -> throw new IOException("env " + e.getName() + ": fieldRef " + path + " is not simulated");
                });
            }
        }
        if ("0.0.0.0".equals(env.get(Environment.BIND_ADDRESS)) || !env.containsKey(Environment.BIND_ADDRESS)) {
            env.put(Environment.BIND_ADDRESS, podIp);
        }
        return env;
    }

    /**
     * What every container learns about the API server, before its own env (which wins): a kubelet
     * gives the {@code kubernetes} Service's ClusterIP; here the API server's own loopback address,
     * the one place on this machine it listens (a ClusterIP routes nowhere here, and tests send
     * nothing off loopback). {@code KUBECONFIG} points nowhere: a container has no kubeconfig, and
     * a client in the pod must not find this machine's own and bypass its service account.
     */
    private Map<String, String> apiServerEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KUBECONFIG", "/nonexistent/ragsearch-sim/kubeconfig");
        java.net.URL master = client.getMasterUrl();
        try {
            java.net.InetAddress host = java.net.InetAddress.getByName(master.getHost());
            if (host.isLoopbackAddress() && "https".equals(master.getProtocol())) {
                env.put("KUBERNETES_SERVICE_HOST", host.getHostAddress());
                env.put("KUBERNETES_SERVICE_PORT", String.valueOf(master.getPort() == -1 ? 443 : master.getPort()));
            }
        } catch (java.net.UnknownHostException e) {
            // no API server address to hand on: in-cluster clients in the pod fail with their own message
        }
        return env;
    }

    private static String secretValue(Secret s, String key) {
        if (s.getData() != null && s.getData().containsKey(key)) {
            return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
        }
        return s.getStringData() == null ? null : s.getStringData().get(key);
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Single-quoted for /bin/sh. */
    private static String q(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
