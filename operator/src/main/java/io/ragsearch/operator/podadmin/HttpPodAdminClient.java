package io.ragsearch.operator.podadmin;

import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.contract.ContractException;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.contract.calibration.LiveRerank;

import io.ragsearch.contract.verification.Verification;
import io.ragsearch.contract.verification.VerificationJson;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/** GET http://podIP:adminPort/calibration, /info (database, embedding) and /verification (and its POST) with short timeouts: a reconcile must not hang on one pod. */
public final class HttpPodAdminClient implements PodAdminClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    @Override
    public Optional<DatabaseState> database(String podIp, int adminPort) throws IOException {
        com.fasterxml.jackson.databind.JsonNode database = info(podIp, adminPort).path("database");
        if (database.isMissingNode() || !database.has("connected")) {
            return Optional.empty();
        }
        return Optional.of(new DatabaseState(database.path("connected").asBoolean(),
                database.hasNonNull("unreachableSince") ? database.get("unreachableSince").asText() : null));
    }

    @Override
    public Optional<EmbeddingState> embedding(String podIp, int adminPort) throws IOException {
        com.fasterxml.jackson.databind.JsonNode e = info(podIp, adminPort).path("embedding");
        if (!e.path("articlesTotal").isIntegralNumber() || !e.path("articlesEmbedded").isIntegralNumber()) {
            return Optional.empty();
        }
        String state = e.path("state").asText("");
        return Optional.of(new EmbeddingState(e.get("articlesEmbedded").asInt(), e.get("articlesTotal").asInt(),
                e.path("secondsLeft").isIntegralNumber() ? e.get("secondsLeft").asLong() : null,
                state.length() > 32 ? state.substring(0, 32) : state));
    }

    /** The pod's /info as JSON. */
    private com.fasterxml.jackson.databind.JsonNode info(String podIp, int adminPort) throws IOException {
        HttpRequest request = get(podIp, adminPort, AdminEndpoints.INFO);
        HttpResponse<String> response = send(request);
        if (response.statusCode() != 200) {
            throw new IOException(request.uri() + " answered " + response.statusCode());
        }
        try {
            return JSON.readTree(response.body());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(request.uri() + " answered something that is not JSON", e);
        }
    }

    private static HttpRequest get(String podIp, int adminPort, String path) {
        return HttpRequest.newBuilder(URI.create("http://" + host(podIp) + ":" + adminPort + path)).timeout(TIMEOUT).GET().build();
    }

    private static String host(String ip) {
        return ip.contains(":") ? "[" + ip + "]" : ip;
    }

    @Override
    public boolean startVerification(String podIp, int adminPort, String baselineMcpUrl) throws IOException {
        String query = "";
        if (baselineMcpUrl != null) {
            // No admin address: the Service carries only the MCP port, and the candidate allows nothing else.
            query = "?" + AdminEndpoints.VERIFICATION_BASELINE + "=" + URLEncoder.encode(baselineMcpUrl, StandardCharsets.UTF_8);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host(podIp) + ":" + adminPort
                        + AdminEndpoints.VERIFICATION + query)).timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 202 || response.statusCode() == 409) {
            return true;
        }
        throw new IOException(request.uri().getPath() + " on " + podIp + " answered " + response.statusCode() + errorField(response.body()));
    }

    /**
     * The pod's own one-line reason (the "error" field of its JSON answer, at most 200 characters),
     * or nothing: a body is never copied whole into a status or an event.
     */
    static String errorField(String body) {
        try {
            com.fasterxml.jackson.databind.JsonNode error = JSON.readTree(body).path("error");
            if (error.isTextual()) {
                String text = error.asText().replaceAll("\\s+", " ").strip();
                return ": " + (text.length() > 200 ? text.substring(0, 200) + "…" : text);
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
            // not the server's JSON: say only the status
        }
        return "";
    }

    @Override
    public Optional<Verification> verification(String podIp, int adminPort) throws IOException {
        return read(podIp, adminPort, AdminEndpoints.VERIFICATION, 404, VerificationJson::parse, "a verification");
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + request.uri(), e);
        }
    }

    @Override
    public Optional<LiveRerank> live(String podIp, int adminPort) throws IOException {
        return read(podIp, adminPort, AdminEndpoints.CALIBRATION, 503, CalibrationJson::parseLive, "a calibration")
                .flatMap(l -> l);
    }

    @Override
    public LiveRerank announceMemoryLimit(String podIp, int adminPort, long bytes) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host(podIp) + ":" + adminPort
                        + AdminEndpoints.RERANK_MEMORY_LIMIT + "?" + AdminEndpoints.RERANK_MEMORY_LIMIT_BYTES + "=" + bytes))
                .timeout(TIMEOUT).PUT(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() != 200) {
            throw new IOException(request.uri().getPath() + " on " + podIp + " answered " + response.statusCode());
        }
        try {
            return CalibrationJson.parseLive("{\"live\":" + response.body() + "}").orElseThrow();
        } catch (ContractException e) {
            throw new IOException(request.uri() + " answered JSON that is not a live rerank bound: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<Calibration> calibration(String podIp, int adminPort) throws IOException {
        return read(podIp, adminPort, AdminEndpoints.CALIBRATION, 503, CalibrationJson::parse, "a calibration");
    }

    /**
     * GET {@code path} read by the contract's strict parser: empty when the pod answers {@code absent}
     * (nothing there yet), an IOException for any other answer but 200 or a body the parser refuses.
     */
    private <T> Optional<T> read(String podIp, int adminPort, String path, int absent, Function<String, T> parser, String what)
            throws IOException {
        HttpRequest request = get(podIp, adminPort, path);
        HttpResponse<String> response = send(request);
        if (response.statusCode() == absent) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new IOException(request.uri() + " answered " + response.statusCode());
        }
        try {
            return Optional.of(parser.apply(response.body()));
        } catch (ContractException e) {
            throw new IOException(request.uri() + " answered JSON that is not " + what + ": " + e.getMessage(), e);
        }
    }
}
