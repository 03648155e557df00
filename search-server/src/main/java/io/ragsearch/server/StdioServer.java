package io.ragsearch.server;

import io.ragsearch.telemetry.Telemetry;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.mcp.McpStdioServer;
import io.ragsearch.mcp.RerankLaneSettings;
import io.ragsearch.mcp.SearchTools;
import io.ragsearch.mcp.ToolCatalog;
import io.ragsearch.mcp.ToolExecutor;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.rerank.RerankSettings;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchService;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * {@code ragsearch stdio}: the configured projects served over standard input and output (MCP
 * 2026-07-28) to the agent that started the process, until it closes the pipe. No listener, no
 * admin port, no calibration: one user's process, its rerank bound from the configuration.
 */
public final class StdioServer {

    private StdioServer() {
    }

    /** Loads the projects, then serves {@code in}/{@code out} until {@code in} ends. */
    public static void run(ServerSettings config, ServerEnvironment env, InputStream in, OutputStream out) throws Exception {
        AppSettings settings = SettingsResolver.resolve(config, env);
        ProjectCatalog catalog = new ProjectCatalog();
        Metrics metrics = new Metrics();
        RerankSettings rerank = settings.models().rerank();
        RerankLaneSettings lane = RerankLaneSettings.forPermits(rerank.concurrency(), rerank.queueTimeoutMillis());
        try (Telemetry telemetry = Telemetry.start(settings.serving().otel(), SearchServerApp.SERVICE_NAME, Version.current());
             ToolExecutor executor = new ToolExecutor(settings.serving().tools(), lane, metrics)) {
            SearchService search = OfflineProjects.load(settings, catalog, name -> true, telemetry.tracer());
            ToolCatalog tools = new ToolCatalog(new SearchTools(catalog, search, metrics).definitions(), executor, telemetry.tracer());
            McpStdioServer server = new McpStdioServer(tools, Version.current(), in, out);
            server.serve();
        }
    }
}
