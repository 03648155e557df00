package io.ragsearch.operator.calibration;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A pod's {@code GET /calibration} answer: the contract's fields (sizes in bytes). Other fields
 * the server adds for people are ignored here.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CalibrationReport(String method, Long memoryLimitBytes, long residentBytes, long perRunBytes,
                                int samples, int batch, int maxSeqLen, int intraOpThreads, String rerankerDigest,
                                String measuredAt) {

    /** A missing size must not read as 0 bytes: that would look like a free run. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);

    /** Parses a pod's answer (or a saved copy of one); every reader of the contract goes through here. */
    public static CalibrationReport parse(String json) throws JsonProcessingException {
        return JSON.readValue(json, CalibrationReport.class);
    }

    /** A server without a reranker reports no run cost: its concurrency setting is unused. */
    public boolean hasReranker() {
        return perRunBytes > 0 && rerankerDigest != null;
    }
}
