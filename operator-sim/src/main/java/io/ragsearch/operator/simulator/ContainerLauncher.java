package io.ragsearch.operator.simulator;

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
 * Starts one container of a pod as a process on this machine: the server jar with the
 * container's args and env, its volume mounts bound at the same paths in a private mount
 * namespace, the root filesystem read-only when the container says so, inside the pod's memory
 * cgroup when there is one. The image's entrypoint is the ragsearch CLI: `java -jar` the jar.
 */
final class ContainerLauncher {

    /** Where mount targets that did not exist on this machine were created (removed at the end if empty). */
    private final MountPoints mountPoints;
    private final Path serverJar;
    private final KubernetesClient client;

    ContainerLauncher(KubernetesClient client, Path serverJar, MountPoints mountPoints) {
        this.client = client;
        this.serverJar = serverJar;
        this.mountPoints = mountPoints;
    }

    record Launch(Process process, Path log) {
    }

    Launch start(String namespace, String podName, String podIp, Container c, Map<String, Path> volumes,
                 MemoryCgroups.Limited cgroup, Path podDir) throws IOException {
        Map<String, String> env = environment(namespace, podName, podIp, c);
        StringBuilder inner = new StringBuilder("set -e\n");
        List<VolumeMount> mounts = new ArrayList<>(c.getVolumeMounts() == null ? List.of() : c.getVolumeMounts());
        // Mounts whose target hides a source (e.g. /tmp over a pod directory under /tmp) go last.
        mounts.sort(Comparator.comparing((VolumeMount m) -> podDir.toAbsolutePath().startsWith(m.getMountPath()))
                .thenComparing(VolumeMount::getMountPath));
        for (VolumeMount m : mounts) {
            Path source = volumes.get(m.getName());
            if (source == null) {
                throw new IOException("container " + c.getName() + " mounts unknown volume " + m.getName());
            }
            if (m.getSubPath() != null && !m.getSubPath().isBlank()) {
                source = source.resolve(m.getSubPath());
            }
            mountPoints.ensure(Path.of(m.getMountPath()));
            inner.append("mount --bind ").append(q(source.toString())).append(' ').append(q(m.getMountPath())).append('\n');
            if (Boolean.TRUE.equals(m.getReadOnly())) {
                inner.append("mount -o remount,bind,ro ").append(q(m.getMountPath())).append('\n');
            }
        }
        if (c.getSecurityContext() != null && Boolean.TRUE.equals(c.getSecurityContext().getReadOnlyRootFilesystem())) {
            inner.append("mount -o remount,bind,ro /\n");
        }
        inner.append("exec ").append(q(javaBinary())).append(" -jar ").append(q(serverJar.toString()));
        for (String arg : c.getArgs() == null ? List.<String>of() : c.getArgs()) {
            inner.append(' ').append(q(arg));
        }
        inner.append('\n');
        Path innerScript = podDir.resolve(c.getName() + "-inner.sh");
        Files.writeString(innerScript, inner.toString());
        StringBuilder outer = new StringBuilder("set -e\n");
        if (cgroup != null) {
            // Into the cgroup before the JVM starts: it sizes its heap from the limit it finds there.
            outer.append("echo $$ > ").append(q(cgroup.procs().toString())).append('\n');
        }
        outer.append("exec unshare --mount --propagation private /bin/sh ").append(q(innerScript.toString())).append('\n');
        Path outerScript = podDir.resolve(c.getName() + "-launch.sh");
        Files.writeString(outerScript, outer.toString());

        Path log = podDir.resolve(c.getName() + ".log");
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", outerScript.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env);
        Files.writeString(log, "---- " + java.time.Instant.now() + " start " + c.getName() + " on " + podIp + "\n",
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return new Launch(pb.start(), log);
    }

    /**
     * The container's env resolved as the kubelet would (values, Secret and ConfigMap keys, the
     * pod's own fields). Pods share this machine's network, so a bind to every interface becomes
     * a bind to the pod's own loopback address — what 0.0.0.0 means inside a pod's network namespace.
     */
    private Map<String, String> environment(String namespace, String podName, String podIp, Container c) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
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
