package io.ragsearch.cli;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.server.AppSettings;
import io.ragsearch.server.SettingsResolver;
import io.ragsearch.server.SearchServerApp;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Runs the server until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the projects as MCP tools (Streamable HTTP at /mcp) with an admin listener for probes. "
                + "Without --config or --project it serves the packaged sample corpus.")
final class ServeCommand implements Callable<Integer> {

    @Mixin
    ProjectOptions projects;

    @Option(names = "--mcp-port", paramLabel = "PORT", description = "MCP port (default 8080; 0 = any free port).")
    Integer mcpPort;

    @Option(names = "--admin-port", paramLabel = "PORT", description = "Admin port (default 8081; 0 = any free port).")
    Integer adminPort;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to listen on (default 127.0.0.1, loopback only; 0.0.0.0 for all interfaces).")
    String bind;

    @Override
    public Integer call() throws Exception {
        // The flags beat the environment, which beats the file.
        ServerEnvironment env = ServerEnvironment.read(System.getenv()).withListener(bind, mcpPort, adminPort);
        AppSettings settings = SettingsResolver.resolve(projects.resolve(env), env);
        SearchServerApp app = SearchServerApp.launch(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping.set(true);
            app.close();
            stopped.countDown();
        }, "shutdown"));
        // Started (/startupz 200): the article vectors and calibration follow, /readyz shows their progress.
        try {
            app.awaitReady();
        } catch (IllegalStateException e) {
            if (!stopping.get()) {
                throw e; // a failed embedding ends the process like any failed start; the vector cache keeps its chunks
            }
            stopped.await();
            return 0;
        }
        String host = settings.serving().mcp().bindAddress();
        // One machine-readable line, for people and for scripts that started us with port 0.
        System.out.println("ragsearch listening: mcp=http://" + host + ":" + app.mcpPort() + "/mcp admin=http://" + host + ":"
                + app.adminPort() + " projects=" + String.join(",", app.catalog().all().stream().map(p -> p.name()).toList()));
        System.out.flush();
        stopped.await();
        return 0;
    }
}
