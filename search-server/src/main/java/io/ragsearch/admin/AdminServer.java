package io.ragsearch.admin;

import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.metrics.Metrics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin listener: probes, /info, /calibration, /metrics and /verification on their own port and their own
 * small Jetty (own threads, not the MCP listener's), so nothing here waits behind tool work.
 *
 * <p>Jetty parses request lines and headers without holding a thread, so clients that send a
 * byte a second cost a socket, not a handler thread. Such a client never goes idle, so three more
 * rules keep the probes answering whatever the clients do (issue 21): a connection must deliver
 * each request's head within {@link #REQUEST_DEADLINE} of opening or of its last answer, or it is
 * closed; new connections are always accepted (a probe never waits in the backlog behind a full
 * table); and when more than {@link #MAX_CONNECTIONS} are open one is closed to make room, chosen
 * by {@link AdmissionOrder}: an answered idle keep-alive first, then one silent for a second;
 * one just opened whose request may be on its way (a probe) only past {@link #HARD_MAX_CONNECTIONS}
 * (issue 32: 200 clients reconnecting at once after one answered GET each closed 100 of 116
 * probes). Paths match exactly ({@code /infox} is 404).
 */
public final class AdminServer implements AutoCloseable {

    /** A probe must answer within its 1–3 s timeout; a client silent for this long is dropped. */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);
    /** Probes, the operator and one scraper need a handful; beyond this one connection is closed for each new one (AdmissionOrder). */
    static final int MAX_CONNECTIONS = 64;
    /**
     * Past the soft cap, connections still within their first second without a request stay (one
     * may be a probe): a flood of clients that reconnect and ask at once (5,000 a second in SlowClientsIT) keeps
     * hundreds of them open on a busy machine. Each costs a socket and a small buffer; past this
     * many the oldest goes whatever its age.
     */
    static final int HARD_MAX_CONNECTIONS = 1024;
    /** Time for a whole request head after a connection opens or after its last answer; every real caller needs milliseconds. */
    static final Duration REQUEST_DEADLINE = Duration.ofSeconds(2);
    /** Acceptor, selector and a few handler threads: handlers only read in-memory state. */
    private static final int THREADS = 8;
    /** No admin request needs more than a request line and a few headers. */
    private static final int MAX_HEADER_BYTES = 8 * 1024;
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Server server;
    private final ServerConnector connector;
    private final Map<String, Endpoint> endpoints = new LinkedHashMap<>();
    private final VerificationEndpoint verification;
    /** Set once before start by a server that re-tunes live; null: the path answers 404. */
    private volatile MemoryLimitEndpoint memoryLimit;
    /** Open connections in the order they opened, each with when it opened and its requests begun and answered. */
    private final Map<Connection, AdmissionOrder.Slot> open = new LinkedHashMap<>();

    /** One admin response. */
    private record Reply(int status, String type, String body) {
    }

    @FunctionalInterface
    private interface Endpoint {
        Reply answer();
    }

    public AdminServer(AdminSettings listener, HealthState health, Metrics metrics,
                       Supplier<Map<String, Object>> info, Supplier<Optional<String>> calibrationJson,
                       VerificationEndpoint verification) throws IOException {
        this.verification = verification;
        String bindAddress = listener.bindAddress();
        int port = listener.port();
        QueuedThreadPool threads = new QueuedThreadPool(THREADS, 2);
        threads.setName("admin");
        threads.setDaemon(true);
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(bindAddress);
        connector.setPort(port);
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        server.addConnector(connector);
        connector.addBean(new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                opened(connection);
            }

            @Override
            public void onClosed(Connection connection) {
                synchronized (open) {
                    open.remove(connection);
                }
            }
        });
        server.setErrorHandler(new PlainErrorHandler());

        endpoints.put(AdminEndpoints.LIVEZ, () -> text(200, "ok\n"));
        endpoints.put(AdminEndpoints.STARTUPZ, () -> {
            if (health.started()) {
                return text(200, "started\n");
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", "starting");
            body.put("phase", health.startupPhase());
            health.startupFailure().ifPresent(f -> body.put("failure", f));
            return json(503, body);
        });
        endpoints.put(AdminEndpoints.READYZ, () -> health.notReadyReason()
                .map(reason -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("status", "not ready");
                    body.put("reason", reason);
                    body.putAll(health.notReadyDetails()); // e.g. the article embedding's progress
                    return json(503, body);
                })
                .orElseGet(() -> text(200, "ready\n")));
        endpoints.put(AdminEndpoints.INFO, () -> json(200, info.get()));
        endpoints.put(AdminEndpoints.CALIBRATION, () -> calibrationJson.get()
                .map(measured -> new Reply(200, "application/json; charset=utf-8", measured + "\n"))
                .orElseGet(() -> json(503, Map.of("status", "not measured", "phase", health.startupPhase()))));
        endpoints.put(AdminEndpoints.METRICS, () -> new Reply(200, "text/plain; version=0.0.4; charset=utf-8", metrics.render()));
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                respond(request, response, callback);
                return true;
            }
        });
    }

    private void opened(Connection connection) {
        AdmissionOrder.Slot slot = new AdmissionOrder.Slot(System.nanoTime());
        AtomicInteger requests = slot.requests();
        Connection evict;
        synchronized (open) {
            open.put(connection, slot);
            evict = AdmissionOrder.toClose(open, connection, System.nanoTime(), MAX_CONNECTIONS, HARD_MAX_CONNECTIONS);
            if (evict != null) {
                open.remove(evict);
            }
        }
        if (evict != null) {
            evict.getEndPoint().close();
        }
        deadline(connection, requests, 0);
    }

    /** Closes the connection unless it has begun another request by the deadline. */
    private void deadline(Connection connection, AtomicInteger requests, int seen) {
        connector.getScheduler().schedule(() -> {
            if (requests.get() == seen) {
                connection.getEndPoint().close();
            }
        }, REQUEST_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void respond(Request request, Response response, Callback callback) {
        Connection connection = request.getConnectionMetaData().getConnection();
        AdmissionOrder.Slot slot;
        synchronized (open) {
            slot = open.get(connection);
        }
        if (slot != null) {
            // Answers are immediate (nothing here blocks), so the next head's deadline can start now.
            deadline(connection, slot.requests(), slot.requests().incrementAndGet());
            Callback answering = callback;
            callback = Callback.from(() -> {
                slot.answered().incrementAndGet();
                answering.succeeded();
            }, answering::failed);
        }
        String path = Request.getPathInContext(request);
        Endpoint endpoint = endpoints.get(path);
        String method = request.getMethod();
        Reply reply;
        if (request.getHeaders().contains(HttpHeader.ORIGIN)) {
            // Browsers send Origin, probes, the operator and scrapers do not: nothing here is for a web page
            // (a cross-site POST must not start a verification; a rebound name must not read /info).
            reply = text(403, "requests from browsers (with an Origin header) are refused on the admin port\n");
        } else if (path.equals(AdminEndpoints.VERIFICATION) && verification != null) {
            reply = verification(request, response, method);
        } else if (path.equals(AdminEndpoints.RERANK_MEMORY_LIMIT) && memoryLimit != null) {
            reply = memoryLimit(request, response, method);
        } else if (endpoint == null) {
            reply = text(404, "not found\n");
        } else if (!method.equals("GET") && !method.equals("HEAD")) {
            reply = text(405, "method not allowed\n");
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
        } else {
            reply = endpoint.answer();
        }
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        response.setStatus(reply.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.type());
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, method.equals("HEAD") ? ByteBuffer.allocate(0) : ByteBuffer.wrap(bytes), callback);
    }

    /** POST starts a run (it returns at once: the checks run on their own thread), GET answers the last one. */
    private Reply verification(Request request, Response response, String method) {
        VerificationEndpoint.Answer answer;
        if (method.equals("POST")) {
            Fields query = Request.extractQueryParameters(request);
            answer = verification.start(query.getValue(AdminEndpoints.VERIFICATION_BASELINE), query.getValue("baselineAdmin"));
        } else if (method.equals("GET") || method.equals("HEAD")) {
            answer = verification.result();
        } else {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST");
            return text(405, "method not allowed\n");
        }
        return new Reply(answer.status(), "application/json; charset=utf-8", answer.json() + "\n");
    }

    /** PUT ?bytes=N: the limit about to apply; a bad number is a 400 that changes nothing. */
    private Reply memoryLimit(Request request, Response response, String method) {
        if (!method.equals("PUT")) {
            response.getHeaders().put(HttpHeader.ALLOW, "PUT");
            return text(405, "method not allowed\n");
        }
        String raw = Request.extractQueryParameters(request).getValue(AdminEndpoints.RERANK_MEMORY_LIMIT_BYTES);
        long bytes;
        try {
            bytes = Long.parseLong(raw == null ? "" : raw.trim());
        } catch (NumberFormatException e) {
            return text(400, "give the limit as ?" + AdminEndpoints.RERANK_MEMORY_LIMIT_BYTES + "=N, a whole number of bytes\n");
        }
        if (bytes <= 0) {
            return text(400, "a memory limit must be positive, got " + bytes + "\n");
        }
        MemoryLimitEndpoint.Answer answer = memoryLimit.announce(bytes);
        return new Reply(answer.status(), "application/json; charset=utf-8", answer.json() + "\n");
    }

    /** Lets {@link AdminEndpoints#RERANK_MEMORY_LIMIT} reach the server's live re-tune. */
    public void acceptMemoryLimits(MemoryLimitEndpoint endpoint) {
        this.memoryLimit = endpoint;
    }

    private static Reply text(int status, String body) {
        return new Reply(status, "text/plain; charset=utf-8", body);
    }

    private static Reply json(int status, Object body) {
        return new Reply(status, "application/json; charset=utf-8", JSON.writeValueAsString(body) + "\n");
    }

    /** Jetty's own errors (a header too large, a bad request line): status and reason, nothing more. */
    private static final class PlainErrorHandler extends ErrorHandler {
        @Override
        protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                        Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            response.write(true, ByteBuffer.wrap((code + " " + HttpStatus.getMessage(code) + "\n")
                    .getBytes(StandardCharsets.UTF_8)), callback);
        }
    }

    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the admin listener on port " + connector.getPort() + ": "
                    + e.getMessage(), e);
        }
    }

    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping anyway
        }
    }
}
