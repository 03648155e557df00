package io.ragsearch.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.ModelFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A cross-encoder a platform team brings, named in the configuration as docs/models.md says
 * ("A larger model of your own"), is the one calibration measures: `calibrate --config` on a
 * project whose reranker is a model directory under RAGSEARCH_MODEL_DIR reports that model's
 * digest and a cost that carries its weights. The model is the random-weight two-class fixture of
 * XLM-R-large width (2 of 24 layers, the 250,002 × 1024 int8 word table: 244 MiB) that
 * scripts/model/fetch-user-model-fixtures.sh generates; the full 24 layers are measured through
 * the built-in stand-in in LargeCostStandInCalibrationIT. Same small worst case as that test.
 */
class OwnRerankerCalibrationIT {

    /**
     * The fixture's model.onnx is 284 MB (its int8 word table alone 250,002 × 1024 bytes), MiniLM's
     * 90 MB: 185 MiB more weights, resident once loaded (198 MiB more measured here once). Most of
     * it must show, whatever else the two processes differ in.
     */
    static final long MORE_WEIGHTS_AT_LEAST = 150L << 20;

    @TempDir
    Path dir;

    @Test
    void calibrationMeasuresTheConfiguredModelOfYourOwn() throws Exception {
        Path fixtures = io.ragsearch.server.SettingsResolver.builtinModels(io.ragsearch.config.ServerEnvironment.read(System.getenv()))
                .locate("user-fixtures/xlmr-large-random-pair2").orElseThrow(() -> new AssertionError(
                        "no user-fixtures/xlmr-large-random-pair2: generate it with scripts/model/fetch-user-model-fixtures.sh"));
        Path config = Files.writeString(dir.resolve("server.yaml"), """
                projects:
                  - name: statutes
                    source: {directory: %s}
                    reranker: {path: xlmr-large-random-pair2, scoreMapping: softmax, positiveClass: 1}
                """.formatted(dir));
        JsonNode mini = LargeCostStandInCalibrationIT.calibrate(dir, "minilm-pair", List.of("--reranker", "minilm-pair"), Map.of());
        JsonNode own = LargeCostStandInCalibrationIT.calibrate(dir, "own", List.of("--config", config.toString()),
                Map.of("RAGSEARCH_MODEL_DIR", fixtures.getParent().toString()));

        assertEquals(ModelFiles.digestOf(fixtures.resolve("model.onnx")), own.get("rerankerDigest").asString(), "the configured model");
        assertTrue(own.get("trained").asBoolean(), "a model of your own is taken for a trained cross-encoder: " + own);
        assertEquals(LargeCostStandInCalibrationIT.MAX_SEQ, own.get("maxSeqLen").asInt());
        long miniResident = mini.get("residentBytes").asLong();
        long ownResident = own.get("residentBytes").asLong();
        System.out.printf(Locale.ROOT, "[own reranker] %dx%d: minilm-pair resident %d MiB perRun %d MiB; "
                        + "xlmr-large-random-pair2 resident %d MiB perRun %d MiB%n", LargeCostStandInCalibrationIT.BATCH,
                LargeCostStandInCalibrationIT.MAX_SEQ, miniResident >> 20, mini.get("perRunBytes").asLong() >> 20,
                ownResident >> 20, own.get("perRunBytes").asLong() >> 20);
        assertTrue(ownResident > miniResident + MORE_WEIGHTS_AT_LEAST,
                "its weights are resident: " + (ownResident >> 20) + " MiB vs " + (miniResident >> 20) + " MiB");
        assertTrue(own.get("perRunBytes").asLong() > 0, "a measured run cost: " + own);
    }
}
