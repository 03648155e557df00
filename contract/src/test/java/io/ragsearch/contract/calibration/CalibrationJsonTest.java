package io.ragsearch.contract.calibration;

import io.ragsearch.contract.ContractException;
import io.ragsearch.contract.Golden;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CalibrationJsonTest {

    @Test
    void readsTheGoldenCalibration() {
        Calibration c = CalibrationJson.parse(Golden.text("calibration.json"));
        assertEquals("cgroup-v2", c.method());
        assertEquals(1_572_864_000L, c.memoryLimitBytes());
        assertEquals(662_700_032L, c.residentBytes());
        assertEquals(333_447_168L, c.perRunBytes());
        assertEquals(3, c.samples());
        assertEquals(32, c.batch());
        assertEquals(256, c.maxSeqLen());
        assertEquals(1, c.intraOpThreads());
        assertTrue(c.hasReranker());
        assertEquals(662_700_032L + 2 * 333_447_168L, c.predictedPeak(2));
        assertEquals(List.of(1, 2), c.levels().stream().map(Calibration.Level::concurrency).toList());
        assertEquals(1.84, c.levels().get(0).seconds(), 1e-9);
        assertEquals("mallopt", c.memorySettings().get("appliedBy"));
        assertEquals(1, c.rerankers().size());
        assertNull(c.rerankers().get(0).levels());
    }

    @Test
    void writtenFormReadsBackEqual() {
        Calibration golden = CalibrationJson.parse(Golden.text("calibration.json"));
        Calibration again = CalibrationJson.parse(CalibrationJson.write(golden));
        // memorySettings holds numbers as read (exact decimals) on both sides.
        assertEquals(golden, again);
    }

    @Test
    void aServerWithoutRerankerHasNoRunCost() {
        Calibration c = CalibrationJson.parse("""
                {"method":"rss","memoryLimitBytes":null,"residentBytes":300000000,"perRunBytes":0,"samples":0,
                 "batch":0,"maxSeqLen":0,"intraOpThreads":0,"rerankerDigest":null,"measuredAt":"2026-12-03T09:00:00Z",
                 "futureField":{"ignored":true}}""");
        assertFalse(c.hasReranker());
        assertNull(c.memoryLimitBytes());
    }

    @Test
    void aMissingOrMistypedSizeIsAnErrorNotZero() {
        String good = Golden.text("calibration.json");
        assertMessage(good.replace("\"perRunBytes\": 333447168,\n  \"samples\"", "\"samples\""), "perRunBytes is missing");
        assertMessage(good.replaceFirst("\"residentBytes\": 662700032", "\"residentBytes\": null"), "residentBytes is missing");
        assertMessage(good.replaceFirst("\"residentBytes\": 662700032", "\"residentBytes\": 6.5"), "residentBytes must be a whole number");
        assertMessage(good.replaceFirst("\"residentBytes\": 662700032", "\"residentBytes\": \"662700032\""), "residentBytes must be a whole number");
        assertMessage(good.replaceFirst("\"batch\": 32", "\"batch\": 99999999999"), "batch is out of range");
        assertMessage(good.replaceFirst("\"method\": \"cgroup-v2\"", "\"method\": 2"), "method must be a string");
        assertMessage(good.replace("\"concurrency\": 2,", "\"concurrency\": \"2\","), "levels[1].concurrency must be a whole number");
        assertMessage("[]", "a calibration is a JSON object");
        assertMessage("{\"status\":\"not measured\"}", "method is missing");
    }

    private static void assertMessage(String json, String expected) {
        ContractException e = assertThrows(ContractException.class, () -> CalibrationJson.parse(json));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void theLiveBoundTravelsBesideTheMeasurementAndOldReadersIgnoreIt() {
        Calibration c = CalibrationJson.parse(Golden.text("calibration.json"));
        LiveRerank live = new LiveRerank(1_258_291_200L, LiveRerank.SOURCE_ANNOUNCED, 1, 2, false, 3, "2026-12-06T12:00:00Z");
        String json = CalibrationJson.write(c, live);
        assertEquals(c, CalibrationJson.parse(json), "the measurement reads the same with the live block beside it");
        assertEquals(live, CalibrationJson.parseLive(json).orElseThrow());
        assertTrue(CalibrationJson.parseLive(CalibrationJson.write(c)).isEmpty(), "a server that does not re-tune has no live block");
        ContractException e = assertThrows(ContractException.class,
                () -> CalibrationJson.parseLive(json.replace("\"inForce\":false", "\"inForce\":\"no\"")));
        assertTrue(e.getMessage().contains("live.inForce"), e.getMessage());
    }

    @Test
    void theCpuLimitInForceTravelsInTheLiveBlockAndABlockWithoutItReadsAsNone() {
        Calibration c = CalibrationJson.parse(Golden.text("calibration.json"));
        LiveRerank live = new LiveRerank(1_572_864_000L, LiveRerank.SOURCE_CGROUP, 1, 0, true, 2, "2026-12-06T12:00:00Z", 1000L);
        String json = CalibrationJson.write(c, live);
        assertTrue(json.contains("\"cpuLimitMillis\":1000"), json);
        assertEquals(live, CalibrationJson.parseLive(json).orElseThrow());
        // What a server before the field wrote: no cpuLimitMillis at all.
        String older = json.replace(",\"cpuLimitMillis\":1000", "");
        assertEquals(live.memoryLimitBytes(), CalibrationJson.parseLive(older).orElseThrow().memoryLimitBytes());
        assertNull(CalibrationJson.parseLive(older).orElseThrow().cpuLimitMillis());
        ContractException e = assertThrows(ContractException.class,
                () -> CalibrationJson.parseLive(json.replace("\"cpuLimitMillis\":1000", "\"cpuLimitMillis\":\"1\"")));
        assertTrue(e.getMessage().contains("live.cpuLimitMillis"), e.getMessage());
    }
}
