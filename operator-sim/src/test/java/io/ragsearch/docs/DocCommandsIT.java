package io.ragsearch.docs;

import static io.ragsearch.docs.CommandRule.assign;
import static io.ragsearch.docs.CommandRule.background;
import static io.ragsearch.docs.CommandRule.coveredBy;
import static io.ragsearch.docs.CommandRule.outside;
import static io.ragsearch.docs.CommandRule.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ragsearch.sim.cluster.ServerJar;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command the README and docs/ show is answered for: the cheap ones run here, exactly as
 * written (only ports are swapped for free ones and {@code ../shared} for where the statutes
 * are), and their shown output must be what they print; the others name the test or script that
 * runs them, which must still contain them, or say why no machine of ours can run them. A new
 * command in a document fails {@link #everyCommandIsAnsweredFor} until it gets a rule here.
 */
class DocCommandsIT {
    private static final String SERVER = "java -jar search-server/target/ragsearch-server\\.jar";
    private static final String BENCH = "java -jar search-bench/target/ragsearch-bench\\.jar";
    private static final String SERVER_TESTS = "search-server/src/test/java/io/ragsearch/";

    /** First match wins. */
    static final List<CommandRule> RULES = List.of(
            // What the test command itself does.
            coveredBy("scripts/test/all\\.sh", ".ci/run", "scripts/test/all.sh"),
            coveredBy("scripts/model/fetch-e5\\.sh", "scripts/test/all.sh", "scripts/model/fetch-e5.sh"),
            coveredBy("scripts/model/fetch-xlmr-pair-cost\\.sh", "scripts/test/all.sh", "scripts/model/fetch-xlmr-pair-cost.sh"),
            coveredBy("scripts/model/fetch-e5\\.sh --form q4", "scripts/test/all.sh", "scripts/model/fetch-e5.sh --form q4"),
            coveredBy("mvn -q -B -DskipTests package", "scripts/test/all.sh", "mvn -B -ntp verify"),
            coveredBy("scripts/build/images\\.sh", "scripts/test/all.sh", "-Pimages"),
            coveredBy("mvn -B -ntp -pl search-server -am verify -Dit\\.test=BadInputCatalogueIT -Dtest=none .*", SERVER_TESTS + "mcp/BadInputCatalogueIT.java", "class BadInputCatalogueIT"),
            coveredBy("mvn -B -ntp -pl search-server -am verify -Dit\\.test='BadInputCatalogueIT,TokenCatalogueIT' -Dtest=none .*",
                    SERVER_TESTS + "mcp/TokenCatalogueIT.java", "class TokenCatalogueIT"),
            coveredBy("mvn -B -ntp -pl operator-sim -am verify -Dit\\.test=ServiceAccountTokensRealPlaneIT .*",
                    "operator-sim/src/test/java/io/ragsearch/sim/endtoend/ServiceAccountTokensRealPlaneIT.java", "class ServiceAccountTokensRealPlaneIT"),
            coveredBy(SERVER + " probe --url http://rules\\.search\\.svc:8080/mcp --token-file /var/run/secrets/ragsearch/token .*",
                    "operator-sim/src/test/java/io/ragsearch/sim/endtoend/ServiceAccountTokensRealPlaneIT.java",
                    "\"probe\", \"--url\", mcpUrl, \"--token-file\", \"/var/run/secrets/ragsearch/token\", \"--every\""),
            coveredBy("mvn -B -ntp -pl operator -am test -Dtest=RenderBadInputCatalogueTest .*", "operator/src/test/java/io/ragsearch/operator/cli/RenderBadInputCatalogueTest.java", "class RenderBadInputCatalogueTest"),
            coveredBy("scripts/otelcol-build\\.sh( >/dev/null)?", "scripts/test/all.sh", "scripts/otelcol-build.sh"),
            coveredBy("mvn -o -q -B -pl search-server -am -Dtest=none -Dit\\.test=TracesToCollectorIT .*",
                    SERVER_TESTS + "mcp/TracesToCollectorIT.java", "class TracesToCollectorIT"),
            coveredBy("OTEL_EXPORTER_OTLP_ENDPOINT=\\S+ OTEL_SERVICE_NAME=\\S+ " + SERVER + " serve --project handbook=examples/corpus/en",
                    SERVER_TESTS + "mcp/TracesToCollectorIT.java", "\"OTEL_EXPORTER_OTLP_ENDPOINT\", collector.endpoint()"),
            outside("mvn -o -q -B -pl search-server (-am test-compile|dependency:build-classpath .*)|"
                    + "RAGSEARCH_OTELCOL_BIN=\\S+ java -cp .* io\\.ragsearch\\.mcp\\.TraceOverhead \\d+",
                    "the tracing overhead, measured by hand (minutes on a busy machine; the figures are in docs/telemetry.md)"),
            outside("mvn .*-Djqwik\\.tries\\.default=200000",
                    "the long fuzz run, by hand; the suite runs the same properties with jqwik's default number of tries"),
            // Run here.
            background(SERVER + " serve( --project rules=examples/corpus/en --mcp-port 8090 --admin-port 8091"
                    + "| --mcp-port 8180 --admin-port 8181| --config gate-099\\.yaml --mcp-port 8190 --admin-port 8191)?"),
            run(SERVER + " query .*"),
            run("curl -s http://127\\.0\\.0\\.1:8080/mcp .*"),
            assign("J=search-server/target/ragsearch-server\\.jar"),
            assign("(R|CP)=\\S+"),
            run("java -jar (\\$J|search-server/target/ragsearch-server\\.jar) eval --project (handbook-en=examples/corpus/en|policies-en=eval/corpora/policies-en) --baseline eval/(handbook-en|policies-en-dev)\\.yaml"),
            run("java -jar operator/target/ragsearch-operator\\.jar render -f examples/ragsearch\\.yaml --calibration examples/calibration\\.json"),
            run("cat > gate-099\\.yaml <<'YAML'\n.*"),
            run(SERVER + " verify --checks eval/verify-handbook\\.yaml --url http://127\\.0\\.0\\.1:8190/mcp --baseline-url http://127\\.0\\.0\\.1:8180/mcp", 3),
            run("java -cp \"\\$CP\" scripts/model/E5JavaCheck\\.java ~/\\.cache/ragsearch/models/multilingual-e5-small"),
            // Run by other tests (kept true by the literal they must contain).
            coveredBy("java -jar \\$J eval --project statutes=\\.\\./shared/corpus/ko-statutes --baseline eval/ko-statutes-dev\\.yaml|"
                    + SERVER + " eval --project statutes=\\.\\./shared/corpus/ko-statutes --baseline eval/ko-statutes-dev\\.yaml",
                    SERVER_TESTS + "eval/QualityFloorsTest.java", "ko-statutes-dev.yaml"),
            coveredBy("java -jar \\$J eval --project agency=eval/corpora/agency-ko --baseline eval/agency-ko-dev\\.yaml",
                    SERVER_TESTS + "eval/QualityFloorsTest.java", "agency-ko-dev.yaml"),
            coveredBy("java -jar \\$J eval --project statutes=\\.\\./shared/corpus/ko-statutes --sweep eval/ko-statutes-dev\\.yaml|"
                    + BENCH + " eval .*--sweep --plot .*", "search-bench/src/test/java/io/ragsearch/bench/PlottingEvalTest.java", "\"--sweep\", \"--plot\""),
            coveredBy("(java -jar \\$J|" + SERVER + ") eval --project policies-en=eval/corpora/policies-en --sweep-midpoint eval/policies-en-dev\\.yaml",
                    SERVER_TESTS + "cli/EvalCommandIT.java", "\"--sweep-midpoint\""),
            // docs/benchmarks.md, "Issue 31": the dump of every dev set (the option is EvalCommandIT's), the blind held-out
            // sets and the gate's trainer.
            coveredBy("java -jar \\$J eval --project statutes=\\$RAGSEARCH_SHARED_CORPUS --project agency=eval/corpora/agency-ko "
                    + "--project policies-en=.* --baseline --dump dev\\.jsonl .*", SERVER_TESTS + "cli/EvalCommandIT.java", "\"--dump\""),
            outside("java -jar \\$J eval --project statutes=\\$RAGSEARCH_SHARED_CORPUS --project agency=eval/corpora/agency-ko "
                    + "--project university-ko=eval/corpora/university-ko --baseline .*",
                    "the blind held-out sets, run by hand once per ranking candidate for their aggregates: a test that ran them "
                            + "in every build would be a floor tuned on them"),
            outside("python3 scripts/eval/train-gate\\.py dev\\.jsonl",
                    "fits and cross-validates the learned gate on a dump of the dev sets, by hand (minutes of plain Python); "
                            + "the server does not use it"),
            // docs/benchmarks.md, "Issue 31, items 2 and 3": the passage and feedback experiments and the dump replay.
            outside("java -Dragsearch\\.passages=\\S+ -jar \\$J eval .*",
                    "an experiment of issue 31 on the dev sets, by hand: the switch exists only in the experiment commit the "
                            + "next commit reverts (the served code has no passage scheme)"),
            outside("python3 scripts/eval/replay\\.py (open|served|sweep) .*",
                    "replays the served fusion and gate from a dump of the dev sets, by hand (seconds of plain Python)"),
            coveredBy("(RAGSEARCH_SHARED_CORPUS=\\S+ )?" + BENCH + " startup --documents \\d+",
                    "search-bench/src/test/java/io/ragsearch/bench/StartupBenchIT.java", "StartupBench.run("),
            coveredBy(SERVER + " eval --url http://127\\.0\\.0\\.1:8080/mcp eval/handbook-en\\.yaml", SERVER_TESTS + "cli/EvalCommandIT.java", "run(\"eval\", \"--json\", \"--url\""),
            coveredBy(SERVER + " verify --checks eval/verify-handbook\\.yaml --url .*", SERVER_TESTS + "cli/VerifyCommandIT.java", "\"--baseline-url\""),
            coveredBy(BENCH + " bench( --ko \\.\\./shared/corpus/ko-statutes| --quick --out /tmp/bench)",
                    "search-bench/src/test/java/io/ragsearch/bench/BenchQuickIT.java", "\"bench\", \"--quick\""),
            coveredBy("(RAGSEARCH_SHARED_CORPUS=\\S+ )?java -Xmx\\d+g -jar search-bench/target/ragsearch-bench\\.jar vector-index .*",
                    "search-bench/src/test/java/io/ragsearch/bench/VectorIndexBenchTest.java", "\"vector-index\""),
            coveredBy("(RAGSEARCH_SHARED_CORPUS=\\S+ )?" + BENCH + " embedding --articles (128|48 --queries 50)( +--model \\S+)?",
                    "search-bench/src/test/java/io/ragsearch/bench/EmbeddingBenchIT.java", "\"embedding\""),
            coveredBy("(RAGSEARCH_SHARED_CORPUS=\\S+ )?" + BENCH + " tokenizer",
                    "search-bench/src/test/java/io/ragsearch/bench/TokenizerBenchIT.java", "\"tokenizer\""),
            coveredBy("(RAGSEARCH_MEMORY_PROBE=rss java .*|" + SERVER + ") calibrate --reranker minilm-pair( --verify 1,2,4)?",
                    SERVER_TESTS + "calibrate/CalibrationPredictsPeakIT.java", "calibrate"),
            // The stand-ins' table in docs/reranking.md: the same command at 32 pairs and the table's lengths; the test
            // runs it for both stand-ins at a smaller worst case (a run at 32 × 512 takes minutes on a busy machine).
            coveredBy("RAGSEARCH_MEMORY_PROBE=rss java .* calibrate --reranker (xlmr-large-pair-cost|minilm-pair) --max-seq-len (256|512) --levels 1",
                    SERVER_TESTS + "calibrate/LargeCostStandInCalibrationIT.java", "\"--levels\", \"1\""),
            coveredBy("RAGSEARCH_MODEL_DIR=/models " + SERVER + " serve --config server\\.yaml",
                    SERVER_TESTS + "cli/CliIT.java", "\"--config\""),
            coveredBy(SERVER + " ingest --config server\\.yaml .*", SERVER_TESTS + "store/MultilingualIngestIT.java", "\"--config\""),
            coveredBy(SERVER + " ingest --db .*", SERVER_TESTS + "store/DatabaseServingIT.java", "cli(\"ingest\", \"--db\""),
            // No test starts serve from the command line with --db: the test serves the database through the app the
            // command starts, and query parses --db with the option set serve shares (ProjectOptions).
            coveredBy("RAGSEARCH_DB_USER=\\S+ RAGSEARCH_DB_PASSWORD=\\S+ " + SERVER + " serve --db .*",
                    SERVER_TESTS + "store/DatabaseServingIT.java", "cli(\"query\", \"--db\""),
            coveredBy("podman load -i search-server/target/image\\.tar", SERVER_TESTS + "image/ServerImageIT.java", "\"load\""),
            coveredBy("java -jar operator-sim/target/ragsearch-operator-sim\\.jar -f examples/ragsearch\\.yaml --docs handbook-docs=examples/corpus/en",
                    // The command line parsed as written (the example and its docs), then the
                    // loop it starts, on the real plane; only the replicas are cut to one.
                    "operator-sim/src/test/java/io/ragsearch/sim/playground/PlaygroundRealPlaneIT.java",
                    "\"--docs\", \"handbook-docs=../examples/corpus/en\""),
            coveredBy("scripts/test/kube-e2e\\.sh", "operator-sim/src/test/java/io/ragsearch/sim/endtoend/KubeE2eScriptIT.java", "scripts/test/kube-e2e.sh"),
            coveredBy("kubectl create configmap handbook-docs --from-file=examples/corpus/en/", "scripts/test/kube-e2e.sh",
                    "kubectl create configmap handbook-docs --from-file=examples/corpus/en/"),
            coveredBy("kubectl apply -f examples/ragsearch\\.yaml", "scripts/test/kube-e2e.sh", "kubectl apply -f examples/ragsearch.yaml"),
            // The scale subresource through kubectl against the real API server (RealCrdIT scales its own RagSearch).
            coveredBy("kubectl scale rags handbook --replicas 3( .*)?", "operator-sim/src/test/java/io/ragsearch/sim/endtoend/RealCrdIT.java",
                    "\"scale\", \"ragsearches.ragsearch.io\", \"scaled\", \"--replicas\", \"3\""),
            coveredBy("kubectl get rags( handbook -o yaml)?", "scripts/test/kube-e2e.sh", "kubectl get rags"),
            // Not on our machines.
            outside("scripts/model/verify-e5\\.sh --bench",
                    "the conversion's own check (about 2 minutes), run by hand when the converter or a pinned package changes"),
            outside("scripts/model/fetch-e5\\.sh --form int8-smooth-split",
                    "a form that is not the default, fetched by hand to measure or evaluate it (docs/models.md, \"Forms\")"),
            outside("mkdir -p /tmp/forms/\\S+|ln -s \\S+ /tmp/forms/\\S+|printf 'models:.*|java -jar \\$J eval --config form\\.yaml .*",
                    "evaluates one form of the model on every set, by hand when forms are compared: it embeds every corpus "
                            + "again (15-20 minutes per form on a busy 2-core machine)"),
            outside("pip install \"optimum\\[exporters\\]\"|optimum-cli export onnx .*",
                    "exports a model from a model hub, which these machines do not reach (and the server never does)"));

    static Stream<String> documents() throws IOException {
        List<String> files = new ArrayList<>(List.of("README.md"));
        try (Stream<Path> docs = Files.list(root().resolve("docs"))) {
            docs.map(p -> "docs/" + p.getFileName()).filter(f -> f.endsWith(".md")).sorted().forEach(files::add);
        }
        return files.stream();
    }

    @Test
    void everyCommandIsAnsweredFor() throws IOException {
        List<String> problems = new ArrayList<>();
        int commands = 0;
        for (String file : documents().toList()) {
            for (DocCommand command : DocCommands.read(root(), file)) {
                for (String part : command.parts()) {
                    commands++;
                    CommandRule rule = ruleFor(part);
                    if (rule == null) {
                        problems.add(command.where() + ": no rule says how this command is tested: " + part);
                    } else if (rule.kind() == CommandRule.Kind.COVERED
                            && !Files.readString(root().resolve(rule.coveredBy())).contains(rule.literal())) {
                        problems.add(command.where() + ": " + rule.coveredBy() + " no longer contains " + rule.literal()
                                + ", so it does not run: " + part);
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(commands >= 40, "read only " + commands + " commands: the parser lost some");
        assertTrue(Files.readAllLines(root().resolve("README.md")).size() <= 300, "the README is for a newcomer: at most 300 lines");
    }

    @ParameterizedTest
    @MethodSource("documents")
    void runnableCommandsDoWhatTheDocumentShows(String file, @TempDir Path work) throws Exception {
        List<DocCommand> commands = DocCommands.read(root(), file);
        for (String dir : List.of("examples", "eval", "scripts", "search-server", "search-bench", "operator")) {
            Files.createSymbolicLink(work.resolve(dir), root().resolve(dir));
        }
        Map<String, String> ports = new HashMap<>();
        List<Process> servers = new ArrayList<>();
        StringBuilder assignments = new StringBuilder();
        try {
            for (DocCommand command : commands) {
                for (String part : command.parts()) {
                    CommandRule rule = ruleFor(part);
                    switch (rule.kind()) {
                        case ASSIGN -> assignments.append(part).append('\n');
                        case BACKGROUND -> servers.add(startServer(command, stripBackground(part), work, ports));
                        case RUN -> runAndCompare(command, assignments + stripBackground(part), rule.exitCode(), work, ports);
                        default -> { }
                    }
                }
            }
        } finally {
            for (Process server : servers) {
                server.destroy();
                if (!server.waitFor(20, TimeUnit.SECONDS)) {
                    server.destroyForcibly();
                }
            }
        }
    }

    private static void runAndCompare(DocCommand command, String script, int expectedExit, Path work, Map<String, String> ports)
            throws Exception {
        Path out = work.resolve("out-" + command.line() + ".txt");
        Process process = shell(substitute(script, ports), work, ports).redirectOutput(out.toFile())
                .redirectError(work.resolve("err-" + command.line() + ".txt").toFile()).start();
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(command.where() + ": still running after 300 s: " + command.text());
        }
        String printed = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(expectedExit, process.exitValue(), command.where() + ": exit status of " + command.text() + "\nstdout:\n"
                + printed + "\nstderr:\n" + Files.readString(work.resolve("err-" + command.line() + ".txt")));
        List<String> shown = command.output().stream().map(line -> substitute(line, ports)).toList();
        String mismatch = ShownOutput.firstMissing(shown, printed);
        assertTrue(mismatch == null, command.where() + ": the document shows a line the command does not print:\n  " + mismatch
                + "\nit printed:\n" + printed);
    }

    private static Process startServer(DocCommand command, String text, Path work, Map<String, String> ports) throws Exception {
        Path log = work.resolve("server-" + command.line() + ".txt");
        ProcessBuilder builder = shell("exec " + substitute(text, ports), work, ports);
        builder.environment().put("RAGSEARCH_MCP_PORT", port("8080", ports));
        builder.environment().put("RAGSEARCH_ADMIN_PORT", port("8081", ports));
        Process server = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (System.nanoTime() < deadline) {
            String printed = Files.readString(log, StandardCharsets.UTF_8);
            if (printed.contains("ragsearch listening: ")) {
                String mismatch = ShownOutput.firstMissing(command.output().stream().map(line -> substitute(line, ports)).toList(), printed);
                assertTrue(mismatch == null, command.where() + ": the server does not print " + mismatch + "\nit printed:\n" + printed);
                return server;
            }
            if (!server.isAlive()) {
                fail(command.where() + ": the server stopped before listening:\n" + printed);
            }
            Thread.sleep(200);
        }
        server.destroyForcibly();
        fail(command.where() + ": not listening after 240 s: " + command.text());
        return server;
    }

    private static ProcessBuilder shell(String script, Path work, Map<String, String> ports) {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(work.toFile());
        builder.environment().remove("RAGSEARCH_CONFIG");
        return builder;
    }

    /** Documented ports become free ones (the same one for each mention); ../shared becomes where the statutes are. */
    static String substitute(String text, Map<String, String> ports) {
        Matcher m = Pattern.compile("\\b(80[89][01]|81[89][01])\\b").matcher(text);
        StringBuilder replaced = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(replaced, port(m.group(1), ports));
        }
        m.appendTail(replaced);
        String corpus = System.getenv("RAGSEARCH_SHARED_CORPUS");
        String result = replaced.toString();
        return corpus == null ? result : result.replace("../shared/corpus/ko-statutes", corpus);
    }

    private static String port(String documented, Map<String, String> ports) {
        return ports.computeIfAbsent(documented, d -> {
            try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                return Integer.toString(socket.getLocalPort());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static String stripBackground(String part) {
        return part.endsWith(" &") ? part.substring(0, part.length() - 2) : part;
    }

    private static CommandRule ruleFor(String part) {
        String command = stripBackground(part);
        return RULES.stream().filter(r -> r.matches(command)).findFirst().orElse(null);
    }

    static Path root() {
        // The server jar sits at ROOT/search-server/target/ragsearch-server.jar.
        return ServerJar.path().toAbsolutePath().getParent().getParent().getParent();
    }
}
