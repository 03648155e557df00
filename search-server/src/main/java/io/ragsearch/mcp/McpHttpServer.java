package io.ragsearch.mcp;

import io.ragsearch.auth.Caller;
import io.ragsearch.auth.TokenVerifier;
import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.metrics.Metrics;
import io.modelcontextprotocol.common.McpTransportContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Optional;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.RequestStateCodec;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.transport.ServerHttpHeaderValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessAsyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import java.time.Duration;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.EagerContentHandler;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import reactor.core.publisher.Mono;

/**
 * The MCP listener: stateless Streamable HTTP at /mcp on embedded Jetty, serving the
 * 2026-07-28 revision through the SDK's new server and 2025-11-25 / 2025-06-18 through its
 * stateless server, with the same tools ({@link ToolCatalog}), filters and limits for both.
 *
 * <p>The SDK's servlet transport blocks a Jetty thread for the whole tool call whatever thread
 * runs the tool, so in-flight /mcp requests are capped with Jetty's QoSHandler below the size
 * of the Jetty pool: requests past the cap wait suspended (holding no thread) for up to
 * {@link #MAX_SUSPEND}, then get 503. The thread pool therefore never runs dry.
 */
public final class McpHttpServer implements AutoCloseable {

    public static final String PATH = AdminEndpoints.MCP_PATH;
    static final Duration MAX_SUSPEND = Duration.ofSeconds(15);
    /** Within a pod's 30 s termination grace: in-flight calls (a queued rerank waits up to 10 s) end first. */
    static final Duration GRACEFUL_STOP = Duration.ofSeconds(20);
    /** JSON-RPC requests of these tools are small; a megabyte is far beyond any honest one. */
    private static final int MAX_BODY_BYTES = 1 << 20;
    /** Far below any real client's rate, far above a slow-body attack's byte a second. */
    static final long MIN_BODY_BYTES_PER_SECOND = 1024;
    /**
     * The whole body within this of the request head: 1 MiB (the largest accepted) at 100 KiB/s,
     * a rate no real client on a working network falls below; a byte a second is cut off here.
     */
    public static final Duration BODY_DEADLINE = Duration.ofSeconds(10);
    /** A connection that sends nothing for this long is closed (it holds a socket, never a permit). */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** Threads beyond the in-flight cap, for acceptors, selectors and requests being suspended. */
    private static final int SPARE_THREADS = 16;

    private final Server jetty;
    private final ServerConnector connector;
    private final McpStatelessAsyncServer mcp;
    private final HttpServletMcpTransport modernTransport;
    private static final String INSTRUCTIONS = "Search regulation-style documents (statutes, company rules). Call list_projects "
            + "first, then search with a project name; cite results by document and article label.";

    /**
     * With {@code jwt} given, /mcp takes JWTs the verifier accepts and serves the protected resource
     * metadata; else with {@code listener.bearerToken()} set, /mcp answers 401 to requests without
     * {@code Authorization: Bearer <it>}; else it is open (loopback by default).
     */
    public McpHttpServer(ListenerSettings listener, TransportSecurityPolicy security, ToolCatalog tools, String version,
                         Metrics metrics, Optional<TokenVerifier> jwt) {
        String bindAddress = listener.bindAddress();
        int port = listener.port();
        int maxInFlight = listener.maxInFlightRequests();
        String bearerToken = listener.bearerToken();
        // Host/Origin are checked by OriginHostFilter (with clean errors), not by the SDK's validator.
        HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
                .messageEndpoint(PATH)
                .maxRequestSize(MAX_BODY_BYTES)
                .contextExtractor(McpHttpServer::requestContext)
                .build();
        this.mcp = McpServer.async(new LegacyVersions(transport))
                .serverInfo("ragsearch", version)
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .validateToolInputs(false) // ToolCatalog checks (and counts) the same way for both revisions
                .tools(LegacyTools.specifications(tools))
                .build();
        // server/discover lists every revision served on this endpoint.
        io.modelcontextprotocol.modern.server.McpServer modern = modernServer(tools, version, McpRequestRules.SUPPORTED_VERSIONS);
        this.modernTransport = HttpServletMcpTransport.builder(modern)
                .endpoint(PATH)
                .maxRequestSize(MAX_BODY_BYTES) // its default is 16 MiB
                .contextExtractor(McpHttpServer::requestContext)
                // Host and Origin are OriginHostFilter's, for both revisions; the SDK's default
                // validator here refuses every Origin, even an allowed local one.
                .httpHeaderValidator(ServerHttpHeaderValidator.NOOP)
                .build();

        QueuedThreadPool threads = new QueuedThreadPool(maxInFlight + SPARE_THREADS, 4);
        threads.setName("mcp-http");
        this.jetty = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        // Below this rate a client is not sending a JSON-RPC message. Jetty applies it to reads it does itself,
        // not to the body EagerContentHandler reads ahead: BodyDeadline is what drops a body that trickles in.
        http.setMinRequestDataRate(MIN_BODY_BYTES_PER_SECOND);
        this.connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        connector.setHost(bindAddress);
        connector.setPort(port);
        jetty.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder servlet = new ServletHolder("mcp", new RevisionRouter(transport, modernTransport));
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, PATH);
        FilterHolder origin = new FilterHolder(new OriginHostFilter(security));
        origin.setAsyncSupported(true);
        context.addFilter(origin, PATH, EnumSet.of(DispatcherType.REQUEST));
        boolean staticToken = bearerToken != null && !bearerToken.isBlank();
        // Auth metrics exist only where there is auth: an open loopback server has no refusals to count.
        AuthEvents events = jwt.isPresent() || staticToken ? new AuthEvents(metrics) : null;
        if (jwt.isPresent()) {
            ProtectedResource resource = new ProtectedResource(jwt.get().settings());
            FilterHolder auth = new FilterHolder(new JwtAuthFilter(jwt.get(), resource, events));
            auth.setAsyncSupported(true);
            context.addFilter(auth, PATH, EnumSet.of(DispatcherType.REQUEST));
            // Public: a client that got a 401 reads where to get a token here (RFC 9728).
            ServletHolder metadata = new ServletHolder("oauth-protected-resource", new ResourceMetadataServlet(resource));
            context.addServlet(metadata, ProtectedResource.WELL_KNOWN);
            context.addServlet(metadata, ProtectedResource.WELL_KNOWN + PATH);
        } else if (staticToken) {
            FilterHolder auth = new FilterHolder(new BearerTokenFilter(bearerToken.strip(), events));
            auth.setAsyncSupported(true);
            context.addFilter(auth, PATH, EnumSet.of(DispatcherType.REQUEST));
        }
        FilterHolder guard = new FilterHolder(new TransportGuardFilter(new McpRequestRules(McpRequestRules.SUPPORTED_VERSIONS, MAX_BODY_BYTES), tools));
        guard.setAsyncSupported(true);
        context.addFilter(guard, PATH, EnumSet.of(DispatcherType.REQUEST));

        QoSHandler qos = new QoSHandler(context);
        qos.setMaxRequestCount(maxInFlight);
        qos.setMaxSuspend(MAX_SUSPEND);
        qos.includePath(PATH);
        // On shutdown (a pod being replaced) calls in flight finish; new connections are refused.
        // The whole body is read (asynchronously, holding no thread) before the request may take an
        // in-flight permit: a client that sends headers and then a byte a second holds no permit.
        // (CompletingRetainedContent: Jetty's own loader loses a failed call's completion, and with it the permit.)
        // The body must be complete within BODY_DEADLINE of the request head, or the connection is closed.
        BodyDeadline deadline = new BodyDeadline(BODY_DEADLINE);
        EagerContentHandler eager = new EagerContentHandler(deadline.inner(qos), new CompletingRetainedContent(MAX_BODY_BYTES + 1));
        GracefulHandler graceful = new GracefulHandler(deadline.outer(eager));
        jetty.setHandler(graceful);
        jetty.setErrorHandler(new JsonErrorHandler());
        jetty.setStopTimeout(GRACEFUL_STOP.toMillis());
    }

    public void start() throws Exception {
        jetty.start();
    }

    /** The SDK's 2026-07-28 server with the catalog's tools, for this listener and for stdio. */
    static io.modelcontextprotocol.modern.server.McpServer modernServer(ToolCatalog tools, String version, List<String> versions) {
        return io.modelcontextprotocol.modern.server.McpServer.builder()
                .serverInfo(new io.modelcontextprotocol.modern.McpSchema.Implementation("ragsearch", null, version, null, null, null))
                .instructions(INSTRUCTIONS)
                .supportedVersions(versions)
                .feature(new ModernTools(tools))
                // No tool asks the client for input, so no request state is ever sealed: refuse any
                // (the SDK's default would make a random per-process HMAC key and warn about it).
                .requestStateCodec(new RequestStateCodec() {
                    @Override
                    public String seal(McpRequestContext ctx, String state) {
                        throw new IllegalStateException("ragsearch's tools never ask for input");
                    }

                    @Override
                    public String open(McpRequestContext ctx, String sealed) {
                        return null; // answered "Invalid or expired requestState"
                    }
                })
                .build();
    }

    /**
     * What the tools get of the HTTP request (both transports hand this context to them): the
     * caller the auth filter accepted and the trace context and ids {@link ToolCallOrigin} reads.
     * One extractor: a transport keeps only the last one it is given.
     */
    private static McpTransportContext requestContext(HttpServletRequest request) {
        Map<String, Object> kept = ToolCallOrigin.httpValues(request);
        Object caller = request.getAttribute(Caller.ATTRIBUTE);
        kept.put(Caller.ATTRIBUTE, caller instanceof Caller c ? c : Caller.ANYONE);
        return McpTransportContext.create(kept);
    }

    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        jetty.stop(); // graceful: waits for calls in flight
        mcp.close();
        modernTransport.closeGracefully();
    }

    /**
     * The SDK's stateless transport as its server sees it, with the 2025 revisions served here:
     * without 2025-03-26 (its batches are not served), so initialize answers 2025-11-25 (the
     * list's last) to a client asking for that one.
     */
    private record LegacyVersions(McpStatelessServerTransport transport) implements McpStatelessServerTransport {

        @Override
        public void setMcpHandler(McpStatelessServerHandler handler) {
            transport.setMcpHandler(handler);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return transport.closeGracefully();
        }

        @Override
        public List<String> protocolVersions() {
            List<String> oldestFirst = new ArrayList<>(McpRequestRules.LEGACY_VERSIONS);
            Collections.reverse(oldestFirst);
            return oldestFirst;
        }
    }
}
