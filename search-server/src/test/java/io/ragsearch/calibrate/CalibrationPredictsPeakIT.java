package io.ragsearch.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.cli.ServerJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The check that matters: in a fresh server process, calibrate the stand-in at the real worst
 * case (32 pairs × 256 tokens), then for N = 1, 2, 4 permits fire 4×N concurrent worst-case
 * reranks and compare the process peak with the prediction resident + N × perRun.
 */
class CalibrationPredictsPeakIT {

    /**
     * A fixed heap touched at startup: the heap the calibration charges at its reservation is then
     * resident, and the check measures the estimate of the memory outside it (docs/memory.md).
     */
    static final String[] POD_HEAP = {"-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch"};
    /**
     * While runs do not outnumber cores (what the operator deploys): achieved 0.91–0.97 of the
     * prediction (docs/memory.md); the margin is for a machine busier than the ones measured on.
     */
    static final double TOLERANCE = 0.05;
    /**
     * More runs than cores (N = 4 on 2): the arena's occasional extra regions reached 1.06 of the
     * prediction in 3 of 16 checks; bounded here so a regression beyond that still fails.
     */
    static final double OVERSUBSCRIBED_TOLERANCE = 0.15;

    @TempDir
    Path dir;

    @Test
    void thePeakUnderNPermitsStaysWithinResidentPlusNTimesPerRun() throws Exception {
        List<String> cmd = new ArrayList<>(ServerJar.command(POD_HEAP));
        cmd.addAll(List.of("calibrate", "--reranker", "minilm-pair", "--verify", "1,2,4"));
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(dir.resolve("out.json").toFile())
                .redirectError(dir.resolve("err.log").toFile())
                .start();
        // 4 + 8 + 16 worst-case reranks after the calibration's own: about a minute alone on 2 cores,
        // but the suite's run under a CPU hog (load 30) needed more than 10 min; 25 is still far below
        // the CI job's limit and says what it waited for.
        if (!p.waitFor(25, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            List<String> err = Files.readAllLines(dir.resolve("err.log"));
            throw new AssertionError("calibrate --verify 1,2,4 did not finish in 25 min (load average "
                    + java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() + "); its last lines:\n"
                    + String.join("\n", err.subList(Math.max(0, err.size() - 20), err.size())));
        }
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("err.log")));
        JsonNode out = JsonMapper.builder().build().readTree(Files.readString(dir.resolve("out.json")));

        JsonNode c = out.get("calibration");
        assertEquals(32, c.get("batch").asInt());
        assertEquals(256, c.get("maxSeqLen").asInt());
        assertEquals(Calibrator.DEFAULT_LEVELS.size(), c.get("samples").asInt());
        long resident = c.get("residentBytes").asLong();
        long perRun = c.get("perRunBytes").asLong();
        assertTrue(perRun > 100L << 20 && perRun < 1L << 30, "per-run cost of 32×256 MiniLM pairs: " + perRun);
        System.out.printf(Locale.ROOT, "[calibration] method=%s resident=%d MiB perRun=%d MiB (%s)%n", c.get("method").asString(),
                resident >> 20, perRun >> 20, c.get("methodReason").asString());

        for (JsonNode v : out.get("verification")) {
            int n = v.get("concurrency").asInt();
            long predicted = v.get("predictedPeakBytes").asLong();
            long measured = v.get("measuredPeakBytes").asLong();
            assertEquals(resident + n * perRun, predicted);
            assertEquals(4 * n, v.get("runs").asInt());
            long heap = v.get("heapResidentBytes").asLong();
            long outside = v.get("outsideHeapPeakBytes").asLong();
            assertTrue(heap > 200L << 20 && heap <= 256L << 20, "the pre-touched heap is resident: " + heap);
            assertTrue(outside + heap >= measured * 0.98 && outside < measured,
                    "heap " + heap + " and the peak outside it " + outside + " make up the peak " + measured);
            System.out.printf(Locale.ROOT, "[calibration] N=%d runs=%d predicted=%d MiB measured=%d MiB ratio=%.3f "
                            + "heap=%d MiB outsideHeapPeak=%d MiB throughput=%.1f candidates/s wall=%.1f s%n", n, v.get("runs").asInt(),
                    predicted >> 20, measured >> 20,
                    v.get("ratio").asDouble(), heap >> 20, outside >> 20, v.get("candidatesPerSecond").asDouble(), v.get("wallSeconds").asDouble());
            double tolerance = n <= Runtime.getRuntime().availableProcessors() ? TOLERANCE : OVERSUBSCRIBED_TOLERANCE;
            assertTrue(measured <= predicted * (1 + tolerance),
                    "N=" + n + ": peak " + (measured >> 20) + " MiB above prediction " + (predicted >> 20) + " MiB + " + tolerance);
        }
    }
}
