package io.ragsearch.operator.calibration;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** GET http://podIP:adminPort/calibration with short timeouts: a reconcile must not hang on one pod. */
public final class HttpCalibrationClient implements CalibrationClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    @Override
    public Optional<CalibrationReport> fetch(String podIp, int adminPort) throws IOException {
        String host = podIp.contains(":") ? "[" + podIp + "]" : podIp;
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + adminPort + "/calibration"))
                .timeout(TIMEOUT).GET().build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + request.uri(), e);
        }
        if (response.statusCode() == 503) {
            return Optional.empty();
        }
        if (response.statusCode() != 200) {
            throw new IOException(request.uri() + " answered " + response.statusCode());
        }
        try {
            return Optional.of(CalibrationReport.parse(response.body()));
        } catch (IOException e) {
            throw new IOException(request.uri() + " answered JSON that is not a calibration: " + e.getMessage(), e);
        }
    }
}
