package io.ragsearch.operator.simulator;

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
                        Files.writeString(dir.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
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
