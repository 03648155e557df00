package io.ragsearch.rerank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the factory does with the large cost stand-in before any weight is read: its own length,
 * a clear error where it was not generated, and a refusal of any other model under its name
 * (a different file would measure a different cost). The real model's load and calibration:
 * LargeCostStandInCalibrationIT.
 */
class LargePairCostStandInTest {

    @TempDir
    Path dir;

    @Test
    void runsAtXlmRsPositionLimitUnlessTold() {
        assertEquals(512, RerankerModel.builtin(RerankerFactory.LARGE_COST, null).maxSeqLen());
        assertEquals(256, RerankerModel.builtin(RerankerFactory.LARGE_COST, 256).maxSeqLen());
        assertEquals(256, RerankerModel.builtin(RerankerFactory.STAND_IN, null).maxSeqLen(), "MiniLM's length is unchanged");
        assertTrue(RerankerFactory.isBuiltin("xlmr-large-pair-cost") && RerankerFactory.isBuiltin("minilm-pair"));
    }

    @Test
    void notGeneratedOnThisMachineSaysWhichScriptMakesIt() throws IOException {
        try (ModelRegistry registry = new ModelRegistry()) {
            IOException e = assertThrows(IOException.class, () -> factory(registry).create(RerankerModel.builtin(RerankerFactory.LARGE_COST, null)));
            assertTrue(e.getMessage().contains("not on this machine") && e.getMessage().contains("scripts/model/fetch-xlmr-pair-cost.sh"),
                    e.getMessage());
            assertEquals(0, registry.loadCount());
        }
    }

    @Test
    void anotherModelUnderItsNameIsRefusedUnloaded() throws IOException {
        Path other = TinyCrossEncoderModel.write(dir.resolve("xlmr-large-pair-cost"), false);
        try (ModelRegistry registry = new ModelRegistry()) {
            IOException e = assertThrows(IOException.class,
                    () -> factory(registry).create(RerankerModel.builtin(RerankerFactory.LARGE_COST, other, null)));
            assertTrue(e.getMessage().contains("not the pinned " + LargePairCostStandIn.SHA256), e.getMessage());
            assertEquals(0, registry.loadCount(), "nothing was loaded");
        }
    }

    private static RerankerFactory factory(ModelRegistry registry) {
        return new RerankerFactory(registry, new SessionSettings(1, SessionSettings.Arena.SHRINK));
    }
}
