package io.ragsearch.bench;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.server.SettingsResolver;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ragsearch.embed.BuiltinModelHome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * `embedding` on four statute articles and five queries with the real multilingual-e5-small,
 * the default form beside the 4-bit form it replaced: every figure is printed with a value for
 * both, the server's vectors equal raw ONNX Runtime's, and the two forms' vectors agree. The
 * test command fetches both forms before Maven runs; without them this test fails, never skips.
 */
class EmbeddingBenchIT {

    @Test
    void printsEveryFigureAndTheTwoPathsGiveTheSameVectors() {
        Map<String, String> env = System.getenv();
        BuiltinModelHome home = SettingsResolver.builtinModels(ServerEnvironment.read(env));
        if (home.multilingual().isEmpty()) {
            fail("multilingual-e5-small is not installed in any of " + home.roots()
                    + ": run scripts/model/fetch-e5.sh (scripts/test/all.sh does) before this test");
        }
        Path corpus = koStatutes(env);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long t0 = System.nanoTime();
        int code = BenchCli.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("embedding", "--ko", corpus.toString(), "--articles", "4", "--queries", "5");
        double seconds = (System.nanoTime() - t0) / 1e9;
        String md = out.toString();
        assertEquals(0, code, "exit status; stderr:\n" + err + "\nstdout:\n" + md);
        assertTrue(md.contains("4 live articles embedded as passages; 5 queries"), md);
        assertTrue(md.contains("Vector agreement (cosine ≥ 0.9999 for every passage at every thread count): PASS"), md);

        int cores = Runtime.getRuntime().availableProcessors();
        String model = "multilingual-e5-small";
        String today = "multilingual-e5-small-q4";
        List<String> figures = new ArrayList<>(List.of("RSS before the model (MiB)", "model resident: RSS after loading − before (MiB)",
                "tokenizer alone: RSS after loading it − before (MiB)",
                "ONNX session: RSS after the registry's load − after the tokenizer (MiB)",
                "TextEmbedder.load on that session (own tokenizer, probe run; first tokenizer closed) (MiB)",
                "RSS growth from embedding the passages (arena, buffers) (MiB)", "search p50 / p95, lexical only (ms)",
                model + " vs " + today + ": passage cosine min / mean (4)", model + " vs " + today + ": query cosine min / mean (5)",
                model + " vs " + today + ": top-10 overlap of each query's nearest passages"));
        for (String m : List.of(model, today)) {
            figures.add(m + ": query embedding p50 / p95 (ms)");
            figures.add(m + ": search p50 / p95, hybrid (ms)");
            for (String at : cores == 1 ? List.of(" at 1 thread") : List.of(" at 1 thread", " at " + cores + " threads")) {
                for (String f : List.of("passages/s server", "passages/s raw ONNX", "passages per CPU-second, raw ONNX", "tokens/s server",
                        "tokens/s raw ONNX", "tokenizing alone, share of the server's time", "server / raw throughput")) {
                    figures.add(m + ": " + f + at);
                }
                assertTrue(value(md, m + ": vector agreement server vs raw" + at + ": min cosine, max abs diff").startsWith("1.0000"), md);
                assertTrue(value(md, m + ": GFLOP/s achieved, raw ONNX" + at + "; share of the fp32 / int8 peak")
                        .matches("[0-9.]+; [0-9]+ % / [0-9]+ %"), md);
            }
        }
        for (String figure : figures) {
            String v = value(md, figure);
            assertTrue(v.matches("-?[0-9.]+( / [0-9.]+)?"), figure + " has a number: '" + v + "'");
        }
        // The two forms compute the same network: their vectors must be near (int8 forms drift to about 0.999).
        assertTrue(Double.parseDouble(value(md, model + " vs " + today + ": passage cosine min / mean (4)").split(" / ")[0]) > 0.99, md);
        assertTrue(md.contains("Peak per core: "), md);
        assertTrue(Double.parseDouble(value(md, "model resident: RSS after loading − before (MiB)")) > 50,
                "loading a 68 MB model grows RSS:\n" + md);
        assertTrue(Double.parseDouble(value(md, model + ": passages/s server at 1 thread")) > 0, md);
        String[] hybrid = value(md, model + ": search p50 / p95, hybrid (ms)").split(" / ");
        assertTrue(Double.parseDouble(hybrid[0]) <= Double.parseDouble(hybrid[1]), md);
        assertTrue(md.contains("Machine: ") && md.contains("Run: `ragsearch-bench embedding --ko"), md);
        System.out.printf("embedding bench on 4 articles took %.1f s%n%s", seconds, md);
    }

    /** The value cell of the table row whose figure is exactly {@code figure}. */
    private static String value(String md, String figure) {
        Matcher m = Pattern.compile("^\\| " + Pattern.quote(figure) + " \\| (.+) \\|$", Pattern.MULTILINE).matcher(md);
        assertTrue(m.find(), "no row '" + figure + "' in:\n" + md);
        return m.group(1);
    }

    /** The shared statutes beside the checkout, as the server's tests find them: required under CI. */
    static Path koStatutes(Map<String, String> env) {
        String override = env.get("RAGSEARCH_SHARED_CORPUS");
        Path dir = override != null ? Path.of(override)
                : Path.of(System.getProperty("user.dir")).resolve("../../shared/corpus/ko-statutes").normalize();
        boolean present = Files.isDirectory(dir);
        if (env.get("CI") != null) {
            assertNotNull(present ? dir : null, "shared corpus missing under CI: " + dir);
        } else {
            Assumptions.assumeTrue(present, "shared corpus not found at " + dir);
        }
        return dir;
    }
}
