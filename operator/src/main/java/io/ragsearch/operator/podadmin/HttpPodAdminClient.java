package io.ragsearch.operator.podadmin;

import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.contract.ContractException;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;

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

/** GET http://podIP:adminPort/calibration, /info and /verification (and its POST) with short timeouts: a reconcile must not hang on one pod. */
public final class HttpPodAdminClient implements PodAdminClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    @Override
    public Optional<DatabaseState> database(String podIp, int adminPort) throws IOException {
        HttpRequest request = get(podIp, adminPort, AdminEndpoints.INFO);
        HttpResponse<String> response = send(request);
        if (response.statusCode() != 200) {
            throw new IOException(request.uri() + " answered " + response.statusCode());
        }
        com.fasterxml.jackson.databind.JsonNode database;
        try {
            database = JSON.readTree(response.body()).path("database");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(request.uri() + " answered something that is not JSON", e);
        }
        if (database.isMissingNode() || !database.has("connected")) {
            return Optional.empty();
        }
        return Optional.of(new DatabaseState(database.path("connected").asBoolean(),
                database.hasNonNull("unreachableSince") ? database.get("unreachableSince").asText() : null));
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
        HttpRequest request = get(podIp, adminPort, AdminEndpoints.VERIFICATION);
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new IOException(request.uri() + " answered " + response.statusCode());
        }
        try {
            return Optional.of(VerificationJson.parse(response.body()));
        } catch (ContractException e) {
            throw new IOException(request.uri() + " answered JSON that is not a verification: " + e.getMessage(), e);
        }
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
    public Optional<Calibration> calibration(String podIp, int adminPort) throws IOException {
        HttpRequest request = get(podIp, adminPort, AdminEndpoints.CALIBRATION);
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 503) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new IOException(request.uri() + " answered " + response.statusCode());
        }
        try {
            return Optional.of(CalibrationJson.parse(response.body()));
        } catch (ContractException e) {
            throw new IOException(request.uri() + " answered JSON that is not a calibration: " + e.getMessage(), e);
        }
    }
}
