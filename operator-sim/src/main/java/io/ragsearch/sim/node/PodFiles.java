package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.naming.PodLayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * A pod's volumes as directories on this machine: ConfigMap contents written out (one file per
 * key, as the kubelet does), emptyDirs as empty directories, projected volumes (what the API
 * server's ServiceAccount admission adds to a pod that does not opt out: a token from the
 * TokenRequest API, the cluster's CA from a ConfigMap, the namespace) written file by file.
 * Claims are not simulated.
 */
final class PodFiles {

    private PodFiles() {
    }

    /**
     * The server configuration as a pod bound to 0.0.0.0 applies it. The simulator binds each pod to
     * its own loopback address instead (pods share this machine's network), and a server on a
     * loopback address checks Host against its loopback names, which a pod on 0.0.0.0 does not: a
     * verification's candidate calling the serving pods by their Service name would get 421. So the
     * Host check is set off here, as it is in a pod ({@code allowedHosts: ["*"]}), unless the
     * configuration names hosts itself; Origin stays as configured.
     */
    @SuppressWarnings("unchecked")
    static String asInAPod(String configYaml) {
        try {
            com.fasterxml.jackson.databind.ObjectMapper yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                    new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
            Map<String, Object> config = yaml.readValue(configYaml, Map.class);
            if (config == null) {
                return configYaml;
            }
            Map<String, Object> server = (Map<String, Object>) config.computeIfAbsent("server", k -> new java.util.LinkedHashMap<>());
            if (server.containsKey("allowedHosts")) {
                return configYaml;
            }
            server.put("allowedHosts", java.util.List.of("*"));
            return yaml.writeValueAsString(config);
        } catch (IOException | ClassCastException e) {
            return configYaml;
        }
    }

    /**
     * Volume name → host directory.
     *
     * @param tokens where the projected ServiceAccount tokens are asked for, written and kept fresh
     */
    static Map<String, Path> prepare(KubernetesClient client, String namespace, String podName,
                                     io.fabric8.kubernetes.api.model.PodSpec spec, Path podDir, ProjectedTokens tokens) throws IOException {
        Map<String, Path> dirs = new HashMap<>();
        for (Volume v : spec.getVolumes() == null ? java.util.List.<Volume>of() : spec.getVolumes()) {
            Path dir = Files.createDirectories(podDir.resolve("volumes").resolve(v.getName()));
            if (v.getConfigMap() != null) {
                ConfigMap cm = client.configMaps().inNamespace(namespace).withName(v.getConfigMap().getName()).get();
                if (cm == null) {
                    throw new IOException("configmap \"" + v.getConfigMap().getName() + "\" not found");
                }
                if (cm.getData() != null) {
                    for (var e : cm.getData().entrySet()) {
                        String value = e.getKey().equals(PodLayout.CONFIG_FILE) ? asInAPod(e.getValue()) : e.getValue();
                        Files.writeString(dir.resolve(e.getKey()), value, StandardCharsets.UTF_8);
                    }
                }
                if (cm.getBinaryData() != null) {
                    for (var e : cm.getBinaryData().entrySet()) {
                        Files.write(dir.resolve(e.getKey()), Base64.getDecoder().decode(e.getValue()));
                    }
                }
            } else if (v.getProjected() != null) {
                for (var source : v.getProjected().getSources()) {
                    project(client, namespace, podName, tokens, source, dir);
                }
            } else if (v.getEmptyDir() == null) {
                throw new IOException("volume \"" + v.getName() + "\": only configMap, emptyDir and projected volumes are simulated");
            }
            dirs.put(v.getName(), dir);
        }
        return dirs;
    }

    /** One source of a projected volume, written into its directory. */
    private static void project(KubernetesClient client, String namespace, String podName, ProjectedTokens tokens,
                                io.fabric8.kubernetes.api.model.VolumeProjection source, Path dir) throws IOException {
        if (source.getServiceAccountToken() != null) {
            tokens.project(source.getServiceAccountToken(), dir);
        } else if (source.getConfigMap() != null) {
            var ref = source.getConfigMap();
            ConfigMap cm = client.configMaps().inNamespace(namespace).withName(ref.getName()).get();
            if (cm == null && ROOT_CA.equals(ref.getName())) {
                cm = rootCa(client);
            }
            if (cm == null || cm.getData() == null) {
                if (Boolean.TRUE.equals(ref.getOptional())) {
                    return;
                }
                throw new IOException("configmap \"" + ref.getName() + "\" not found");
            }
            if (ref.getItems() == null || ref.getItems().isEmpty()) {
                for (var e : cm.getData().entrySet()) {
                    write(dir.resolve(e.getKey()), e.getValue());
                }
            } else {
                for (var item : ref.getItems()) {
                    String value = cm.getData().get(item.getKey());
                    if (value == null) {
                        throw new IOException("configmap \"" + ref.getName() + "\" has no key " + item.getKey());
                    }
                    write(dir.resolve(item.getPath()), value);
                }
            }
        } else if (source.getDownwardAPI() != null) {
            for (var item : source.getDownwardAPI().getItems()) {
                String field = item.getFieldRef() == null ? null : item.getFieldRef().getFieldPath();
                String value = switch (field == null ? "" : field) {
                    case "metadata.namespace" -> namespace;
                    case "metadata.name" -> podName;
                    default -> throw new IOException("downwardAPI item " + item.getPath() + ": only metadata.namespace and metadata.name are simulated");
                };
                write(dir.resolve(item.getPath()), value);
            }
        } else {
            throw new IOException("projected volume: only serviceAccountToken, configMap and downwardAPI sources are simulated");
        }
    }

    /** The cluster's CA bundle, which the root-ca-cert-publisher controller puts into every namespace. */
    static final String ROOT_CA = "kube-root-ca.crt";

    /**
     * Where that controller does not run (the testplane runs only the controllers the tests need):
     * the CA the agent itself trusts for the API server, as that controller would publish it.
     */
    private static ConfigMap rootCa(KubernetesClient client) {
        var config = client.getConfiguration();
        String pem = null;
        try {
            if (config.getCaCertData() != null) {
                pem = new String(Base64.getDecoder().decode(config.getCaCertData()), StandardCharsets.UTF_8);
            } else if (config.getCaCertFile() != null) {
                pem = Files.readString(Path.of(config.getCaCertFile()));
            }
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        return pem == null ? null : new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName(ROOT_CA).endMetadata()
                .addToData("ca.crt", pem).build();
    }

    private static void write(Path file, String value) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, value, StandardCharsets.UTF_8);
    }
}
