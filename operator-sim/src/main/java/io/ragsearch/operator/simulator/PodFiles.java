package io.ragsearch.operator.simulator;

import io.ragsearch.operator.naming.PodLayout;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * A pod's volumes as directories on this machine: ConfigMap contents written out (one file per
 * key, as the kubelet does), emptyDirs as empty directories. Claims are not simulated.
 */
final class PodFiles {

    private PodFiles() {
    }

    /** Volume name → host directory. */
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

    static Map<String, Path> prepare(KubernetesClient client, String namespace, Iterable<Volume> volumes, Path podDir)
            throws IOException {
        Map<String, Path> dirs = new HashMap<>();
        for (Volume v : volumes) {
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
            } else if (v.getEmptyDir() == null) {
                throw new IOException("volume \"" + v.getName() + "\": only configMap and emptyDir volumes are simulated");
            }
            dirs.put(v.getName(), dir);
        }
        return dirs;
    }
}
