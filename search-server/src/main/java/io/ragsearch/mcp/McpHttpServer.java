package io.ragsearch.mcp;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessAsyncServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The MCP listener: stateless Streamable HTTP at /mcp on embedded Jetty.
 *
 * <p>The SDK's servlet transport blocks a Jetty thread for the whole tool call whatever thread
 * runs the tool, so in-flight /mcp requests are capped with Jetty's QoSHandler below the size
 * of the Jetty pool: requests past the cap wait suspended (holding no thread) for up to
 * {@link #MAX_SUSPEND}, then get 503. The thread pool therefore never runs dry.
 */
public final class McpHttpServer implements AutoCloseable {

    public static final String PATH = "/mcp";
    static final Duration MAX_SUSPEND = Duration.ofSeconds(15);
    /** Within a pod's 30 s termination grace: in-flight calls (a queued rerank waits up to 10 s) end first. */
    static final Duration GRACEFUL_STOP = Duration.ofSeconds(20);
    /** JSON-RPC requests of these tools are small; a megabyte is far beyond any honest one. */
    private static final int MAX_BODY_BYTES = 1 << 20;
    /** Threads beyond the in-flight cap, for acceptors, selectors and requests being suspended. */
    private static final int SPARE_THREADS = 16;

    private final Server jetty;
    private final ServerConnector connector;
    private final McpStatelessAsyncServer mcp;

    public McpHttpServer(String bindAddress, int port, int maxInFlight, TransportSecurityPolicy security,
                         List<AsyncToolSpecification> tools, String version) {
        this(bindAddress, port, maxInFlight, security, tools, version, null);
    }

    /** @param bearerToken when set, /mcp answers 401 to requests without {@code Authorization: Bearer <it>} */
    public McpHttpServer(String bindAddress, int port, int maxInFlight, TransportSecurityPolicy security,
                         List<AsyncToolSpecification> tools, String version, String bearerToken) {
        HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
                .messageEndpoint(PATH)
                .securityValidator(security.validator())
                .maxRequestSize(MAX_BODY_BYTES)
                .build();
        this.mcp = McpServer.async(transport)
                .serverInfo("ragsearch", version)
                .instructions("Search regulation-style documents (statutes, company rules). Call list_projects first, "
                        + "then search with a project name; cite results by document and article label.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tools)
                .build();

        QueuedThreadPool threads = new QueuedThreadPool(maxInFlight + SPARE_THREADS, 4);
        threads.setName("mcp-http");
        this.jetty = new Server(threads);
        this.connector = new ServerConnector(jetty);
        connector.setHost(bindAddress);
        connector.setPort(port);
        jetty.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder servlet = new ServletHolder("mcp", transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, PATH);
        if (bearerToken != null && !bearerToken.isBlank()) {
            FilterHolder auth = new FilterHolder(new BearerTokenFilter(bearerToken.strip()));
            auth.setAsyncSupported(true);
            context.addFilter(auth, PATH, EnumSet.of(DispatcherType.REQUEST));
        }
        FilterHolder guard = new FilterHolder(new TransportGuardFilter(MAX_BODY_BYTES));
        guard.setAsyncSupported(true);
        context.addFilter(guard, PATH, EnumSet.of(DispatcherType.REQUEST));

        QoSHandler qos = new QoSHandler(context);
        qos.setMaxRequestCount(maxInFlight);
        qos.setMaxSuspend(MAX_SUSPEND);
        qos.includePath(PATH);
        // On shutdown (a pod being replaced) calls in flight finish; new connections are refused.
        GracefulHandler graceful = new GracefulHandler(qos);
        jetty.setHandler(graceful);
        jetty.setStopTimeout(GRACEFUL_STOP.toMillis());
    }

    public void start() throws Exception {
        jetty.start();
    }

    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        jetty.stop(); // graceful: waits for calls in flight
        mcp.close();
    }
}
