package io.ragsearch.sim.playground;

import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.sim.cluster.ServerJar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The playground's own mechanics (banner, apply, live view, re-apply on save, a broken save
 * changing nothing, clean stop) on its real control plane with zero replicas; the pods themselves
 * are {@link PlaygroundRealPlaneIT}'s and the end-to-end tests'.
 */
class PlaygroundIT {

    @Test
    void appliesShowsReappliesOnSaveIgnoresABrokenSaveAndStopsCleanly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rags.yaml");
        String yaml = Files.readString(Path.of("../examples/ragsearch.yaml")).replace("replicas: 2", "replicas: 0");
        Files.writeString(file, yaml);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Playground playground = new Playground(new Playground.Options(file, ServerJar.path(), null,
                Map.of("handbook-docs", Path.of("../examples/corpus/en")), dir.resolve("work"), Duration.ofMillis(200)), out);
        try {
            playground.start();
            String banner = text(bytes);
            assertTrue(banner.contains("API server  real: kube-apiserver"), banner);
            assertTrue(banner.contains("cost stand-in"), banner);
            await().atMost(Duration.ofSeconds(90)).until(() -> text(bytes).contains("ScaledToZero"));
            String view = text(bytes);
            assertTrue(view.contains("ConfigMap default/handbook-docs created from"), view);
            assertTrue(view.contains("applied default/handbook (created)"), view);
            assertTrue(view.contains("InvalidSpec") && view.contains("rerank concurrency 1"), view);

            save(file, yaml.replace("headroomPercent: 10", "headroomPercent: 20"));
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                RagSearch r = playground.current();
                return r.getSpec().rerank.headroomPercent == 20 && r.getStatus() != null
                        && r.getStatus().observedGeneration.equals(r.getMetadata().getGeneration());
            });
            assertTrue(text(bytes).contains("applied default/handbook (updated)"));

            save(file, "apiVersion: ragsearch.io/v1alpha1\nkind: RagSearch\nspec: [half saved");
            await().atMost(Duration.ofSeconds(90)).until(() -> text(bytes).contains("not applied:"));
            assertEquals(20, playground.current().getSpec().rerank.headroomPercent, "a broken save changes nothing");
        } finally {
            playground.close();
        }
        assertTrue(text(bytes).contains("stopped: 0 server process(es), the operator, the node agent and the control plane"), text(bytes));
    }

    /** Writes and moves the modification time on, so a save within the same millisecond is still seen. */
    private static void save(Path file, String text) throws Exception {
        FileTime before = Files.getLastModifiedTime(file);
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(before.toInstant().plusSeconds(1).isAfter(Instant.now())
                ? before.toInstant().plusSeconds(1) : Instant.now()));
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
