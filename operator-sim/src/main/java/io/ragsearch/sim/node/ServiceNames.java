package io.ragsearch.sim.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster DNS of the simulator: a hosts file, given to every server process it starts
 * ({@code -Djdk.net.hosts.file}), that maps each Service's in-cluster names
 * ({@code name.namespace.svc}, {@code ….svc.cluster.local}) to the address of one ready pod it
 * selects, as a Service's virtual address would route. A verification's candidate reaches its
 * baseline by that name, the only one its allow-list holds. Names with no ready pod are left
 * out (unknown host, as a Service without endpoints refuses).
 */
final class ServiceNames {

    private final Path file;
    private String written = "";

    ServiceNames(Path file) throws IOException {
        this.file = file;
        Files.createDirectories(file.getParent());
        write("127.0.0.1 localhost\n");
    }

    Path file() {
        return file;
    }

    /** Rewrites the file when what the Services route to has changed. */
    synchronized void sync(KubernetesClient client) {
        StringBuilder b = new StringBuilder("127.0.0.1 localhost\n");
        for (Service s : client.services().inAnyNamespace().list().getItems()) {
            Map<String, String> selector = s.getSpec() == null ? null : s.getSpec().getSelector();
            if (selector == null || selector.isEmpty()) {
                continue;
            }
            String ns = s.getMetadata().getNamespace();
            // The newest ready pod that is not going away: an older one may be terminating while still listed ready.
            Optional<String> ip = client.pods().inNamespace(ns).withLabels(selector).list().getItems().stream()
                    .filter(EndpointReadiness::routable)
                    .max(java.util.Comparator.comparing((Pod p) -> String.valueOf(p.getMetadata().getCreationTimestamp()))
                            .thenComparing(p -> p.getMetadata().getName()))
                    .map(p -> p.getStatus().getPodIP());
            if (ip.isPresent()) {
                String name = s.getMetadata().getName() + "." + ns + ".svc";
                b.append(ip.get()).append(' ').append(name).append(' ').append(name).append(".cluster.local\n");
            }
        }
        try {
            write(b.toString());
        } catch (IOException e) {
            // the next sync tries again
        }
    }

    private void write(String content) throws IOException {
        if (content.equals(written)) {
            return;
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        written = content;
    }
}
