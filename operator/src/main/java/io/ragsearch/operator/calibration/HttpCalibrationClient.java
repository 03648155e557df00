package io.ragsearch.operator.calibration;

import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.contract.ContractException;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** GET http://podIP:adminPort/calibration and /info with short timeouts: a reconcile must not hang on one pod. */
public final class HttpCalibrationClient implements CalibrationClient {

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
        String host = podIp.contains(":") ? "[" + podIp + "]" : podIp;
        return HttpRequest.newBuilder(URI.create("http://" + host + ":" + adminPort + path)).timeout(TIMEOUT).GET().build();
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
    public Optional<Calibration> fetch(String podIp, int adminPort) throws IOException {
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
