package io.ragsearch.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.cli.ServerJar;
import io.ragsearch.search.SharedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod stopped while it still embeds its corpus at startup (a roll, a scale-down) stops: exit
 * 143 for SIGTERM, no native crash. Before the run gate, the JVM's exit ran ONNX Runtime's
 * destructors under the embedding thread and the process died with SIGABRT (exit 134) and a
 * crash log.
 */
class StopWhileEmbeddingIT {

    @TempDir
    Path dir;

    @Test
    void sigtermDuringStartupEmbeddingEndsTheProcessCleanly() throws Exception {
        List<String> cmd = ServerJar.command();
        cmd.addAll(List.of("serve", "--project", "statutes=" + SharedCorpus.koStatutes(), "--mcp-port", "0", "--admin-port", "0"));
        Path log = dir.resolve("server.log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("RAGSEARCH_VECTOR_CACHE", dir.resolve("empty-cache").toString()); // 877 articles to embed
        Process server = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(log).contains("EmbeddingModelHolder") && System.nanoTime() < deadline) {
                assertTrue(server.isAlive(), "the server stopped before embedding:\n" + Files.readString(log));
                Thread.sleep(100);
            }
            assertTrue(Files.readString(log).contains(" loaded in "), "the model never loaded:\n" + Files.readString(log));
            Thread.sleep(3000); // well inside the corpus's embedding, which takes minutes
            assertTrue(server.isAlive() && !Files.readString(log).contains("ragsearch listening"),
                    "the server was no longer embedding when the test stopped it:\n" + Files.readString(log));
            server.destroy(); // SIGTERM, as the kubelet sends
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "still running 60 s after SIGTERM");
            assertEquals(143, server.exitValue(), "exit status after SIGTERM (134 = the native crash):\n" + tail(log));
            try (Stream<Path> files = Files.list(dir)) {
                assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("hs_err")), "a JVM crash log was written");
            }
        } finally {
            server.destroyForcibly();
        }
    }

    private static String tail(Path log) throws Exception {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }
}
