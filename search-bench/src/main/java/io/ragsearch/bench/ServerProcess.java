package io.ragsearch.bench;

import io.ragsearch.contract.Environment;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A real server as a separate JVM on ephemeral loopback ports, as a deployment runs it. */
final class ServerProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("ragsearch listening: mcp=http://[^:]+:(\\d+)/mcp admin=http://[^:]+:(\\d+) .*");

    final Process process;
    final int mcpPort;
    final int adminPort;
    /** From the process's launch to its "listening" line, which the server prints once it is ready (projects loaded). */
    final double startToReadySeconds;

    private ServerProcess(Process process, int mcpPort, int adminPort, double startToReadySeconds) {
        this.process = process;
        this.mcpPort = mcpPort;
        this.adminPort = adminPort;
        this.startToReadySeconds = startToReadySeconds;
    }

    static ServerProcess start(Path config, int rerankConcurrency, Path log) throws IOException {
        return start(config, Map.of(Environment.RERANK_CONCURRENCY, Integer.toString(rerankConcurrency)), log);
    }

    /** @param env added to this process's environment (e.g. where the vector cache is) */
    static ServerProcess start(Path config, Map<String, String> env, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), "io.ragsearch.cli.RagSearchCli", "serve",
                "--config", config.toString(), "--mcp-port", "0", "--admin-port", "0", "--bind", "127.0.0.1"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(log.toFile());
        pb.environment().putAll(env);
        pb.environment().put(Environment.MEMORY_PROBE, "rss"); // the bench measures the process, so calibration must too
        long t0 = System.nanoTime();
        Process p = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null; ) {
            Matcher m = LISTENING.matcher(line);
            if (m.matches()) {
                return new ServerProcess(p, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), (System.nanoTime() - t0) / 1e9);
            }
        }
        throw new IOException("server did not start; see " + log);
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
