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
 * `embedding` on four statute articles and five queries with the real multilingual-e5-small:
 * every figure is printed with a value, and the server's vectors equal raw ONNX Runtime's.
 * The test command fetches the model before Maven runs; without it this test fails, never skips.
 */
class EmbeddingBenchIT {

    @Test
    void printsEveryFigureAndTheTwoPathsGiveTheSameVectors() {
        Map<String, String> env = System.getenv();
        BuiltinModelHome home = SettingsResolver.builtinModels(ServerEnvironment.read(env));
        if (home.multilingual().isEmpty()) {
            fail("multilingual-e5-small is not installed in any of " + home.roots()
                    + ": run scripts/model/fetch-e5.sh (scripts/test-all.sh does) before this test");
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
        List<String> figures = new ArrayList<>(List.of("RSS before the model (MiB)", "model resident: RSS after loading − before (MiB)",
                "tokenizer alone: RSS after loading it − before (MiB)",
                "ONNX session: RSS after the registry's load − after the tokenizer (MiB)",
                "TextEmbedder.load on that session (own tokenizer, probe run; first tokenizer closed) (MiB)",
                "RSS growth from embedding the passages (arena, buffers) (MiB)", "query embedding p50 / p95 (ms)",
                "search p50 / p95, hybrid with the model (ms)", "search p50 / p95, lexical only (ms)"));
        for (String at : cores == 1 ? List.of(" at 1 thread") : List.of(" at 1 thread", " at " + cores + " threads")) {
            for (String f : List.of("passages/s server", "passages/s raw ONNX", "tokens/s server", "tokens/s raw ONNX",
                    "tokenizing alone, share of the server's time", "server / raw throughput")) {
                figures.add(f + at);
            }
            assertTrue(value(md, "vector agreement" + at + ": min cosine, max abs diff").startsWith("1.0000"), md);
        }
        for (String figure : figures) {
            String v = value(md, figure);
            assertTrue(v.matches("-?[0-9.]+( / [0-9.]+)?"), figure + " has a number: '" + v + "'");
        }
        assertTrue(Double.parseDouble(value(md, "model resident: RSS after loading − before (MiB)")) > 50,
                "loading a 68 MB model grows RSS:\n" + md);
        assertTrue(Double.parseDouble(value(md, "passages/s server at 1 thread")) > 0, md);
        String[] hybrid = value(md, "search p50 / p95, hybrid with the model (ms)").split(" / ");
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
