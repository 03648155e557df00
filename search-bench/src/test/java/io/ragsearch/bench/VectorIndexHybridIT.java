package io.ragsearch.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.embed.BuiltinModelHome;
import io.ragsearch.server.SettingsResolver;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `vector-index --hybrid` run small with the real multilingual-e5-small and the statutes: hybrid
 * search through SearchService over a replicated corpus, its graph built and kept in --work,
 * every step's p50/p95 and the build and memory line printed with values.
 */
class VectorIndexHybridIT {

    @TempDir
    Path dir;

    @Test
    void printsEveryStepOfHybridSearchOverAReplicatedCorpus() {
        Map<String, String> env = System.getenv();
        BuiltinModelHome home = SettingsResolver.builtinModels(ServerEnvironment.read(env));
        if (home.multilingual().isEmpty()) {
            fail("multilingual-e5-small is not installed in any of " + home.roots()
                    + ": run scripts/model/fetch-e5.sh (scripts/test/all.sh does) before this test");
        }
        Path corpus = EmbeddingBenchIT.koStatutes(env);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // 1,500 articles: more than the statutes' 843 live ones, so the corpus is replicated; the held-out questions keep it short.
        int code = BenchCli.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)).execute(
                "vector-index", "--sizes", "0", "--hybrid", "1500", "--ko", corpus.toString(), "--questions",
                "eval/ko-statutes-holdout.yaml", "--work", dir.toString());
        String md = out.toString();
        assertEquals(0, code, "stderr:\n" + err + "\nstdout:\n" + md);
        assertTrue(md.contains("#### Hybrid search over 1,500 articles (statutes replicated; synthetic vectors; 30 queries"), md);
        Matcher line = Pattern.compile("Graph built in [0-9.]+ s \\(int8, M 16, beamWidth 100, 100 candidates\\); lexical index built in "
                + "[0-9.]+ s \\([0-9.]+ CPU-s\\); RSS (\\d+) MiB \\(peak (\\d+) MiB\\), heap used (\\d+) MiB, of which the lexical side (-?\\d+) MiB").matcher(md);
        assertTrue(line.find(), "build and memory line:\n" + md);
        assertTrue(Long.parseLong(line.group(2)) >= Long.parseLong(line.group(1)), "peak RSS below RSS:\n" + md);
        for (String step : new String[] {"query embedding", "vector leg \\(graph, depth \\d+\\)", "lexical search",
                "hybrid search \\(embedding included\\)"}) {
            Matcher row = Pattern.compile("\\| " + step + " \\| ([0-9.]+) \\| ([0-9.]+) \\|").matcher(md);
            assertTrue(row.find(), step + " row missing:\n" + md);
            assertTrue(Double.parseDouble(row.group(2)) >= Double.parseDouble(row.group(1)) && Double.parseDouble(row.group(1)) > 0,
                    step + ": p95 below p50 or no time:\n" + md);
        }
        assertTrue(Files.isDirectory(dir.resolve("1500-int8")), "the hybrid run keeps its graph in --work");
    }
}
