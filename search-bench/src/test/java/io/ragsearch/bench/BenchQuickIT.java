package io.ragsearch.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.bench.BenchCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** `bench --quick` against real server processes: every output is produced and its numbers are sane. */
class BenchQuickIT {

    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    @TempDir
    Path out;

    @Test
    void quickBenchWritesJsonMarkdownAndPlots() throws Exception {
        StringWriter err = new StringWriter();
        PrintStream original = System.out;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        int code;
        try {
            code = BenchCli.commandLine().setErr(new PrintWriter(err, true)).execute("bench", "--quick", "--out", out.toString());
        } finally {
            System.setOut(original);
        }
        assertEquals(0, code, err.toString());

        JsonNode r = JsonMapper.builder().build().readTree(Files.readString(out.resolve("results.json")));
        JsonNode load = r.get("load");
        assertEquals(2, load.size(), "1 and 4 concurrent searches");
        for (JsonNode cell : load) {
            int searches = cell.get("searches").asInt();
            assertEquals(cell.get("concurrentSearches").asInt(), searches, "one round each");
            assertEquals(0, cell.get("failed").asInt(), "no failed search");
            assertTrue(cell.get("livezSamples").asInt() > 0, "health was probed during the load");
            assertTrue(cell.get("livezP50Ms").asDouble() <= cell.get("livezMaxMs").asDouble());
            assertTrue(cell.get("searchP50Ms").asDouble() > 0 && cell.get("searchP50Ms").asDouble() <= cell.get("searchP95Ms").asDouble());
            assertTrue(cell.get("peakBytes").asLong() > 50L << 20, "a server with a model loaded");
            assertTrue(cell.get("predictedPeakBytes").asLong() > cell.get("peakBytes").asLong() / 2);
        }
        double efficiency = r.get("efficiency").asDouble();
        assertTrue(efficiency > 0 && efficiency < 1.5, "end-to-end over raw: " + efficiency);
        assertTrue(r.get("raw").get("gflopPerSecond").asDouble() > 0);
        assertEquals(2, r.get("scaling").size());
        assertEquals(2 * r.get("scaling").get(0).get("articles").asInt(), r.get("scaling").get(1).get("articles").asInt());
        assertTrue(r.get("calibrations").get("handbook-en").get("perRunBytes").asLong() > 0);

        String md = Files.readString(out.resolve("results.md"));
        for (String section : new String[] {"### Headline", "### Load table", "### Efficiency", "### Scaling"}) {
            assertTrue(md.contains(section), section);
        }
        for (String png : new String[] {"livez-p99.png", "search-p50.png", "memory-handbook-en.png", "scaling.png"}) {
            byte[] bytes = Files.readAllBytes(out.resolve(png));
            assertTrue(bytes.length > 5_000, png + " has a plot in it");
            assertArrayEquals(PNG_MAGIC, Arrays.copyOf(bytes, 4), png);
        }
    }
}
