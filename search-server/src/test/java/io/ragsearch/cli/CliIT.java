package io.ragsearch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliIT {

    private static final Pattern LISTENING = Pattern.compile("ragsearch listening: mcp=http://[^:]+:(\\d+)/mcp admin=http://[^:]+:(\\d+) .*");

    @TempDir
    Path dir;

    /** The server as a person starts it: a separate JVM, ephemeral ports printed on startup. */
    @Test
    void serveStartsOnTheSampleCorpusPrintsItsPortsAndAnswersProbes() throws Exception {
        Process p = new ProcessBuilder(javaCommand("serve", "--mcp-port", "0", "--admin-port", "0", "--bind", "127.0.0.1"))
                .redirectError(dir.resolve("stderr.log").toFile())
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line;
            Matcher m = null;
            while ((line = out.readLine()) != null) {
                m = LISTENING.matcher(line);
                if (m.matches()) {
                    break;
                }
            }
            assertTrue(m != null && m.matches(), "no listening line; stderr: " + Files.readString(dir.resolve("stderr.log")));
            int admin = Integer.parseInt(m.group(2));
            HttpClient http = HttpClient.newHttpClient();
            assertEquals(200, get(http, admin, "/livez").statusCode());
            assertEquals(200, get(http, admin, "/startupz").statusCode());
            assertEquals(200, get(http, admin, "/readyz").statusCode());
            String info = get(http, admin, "/info").body();
            assertTrue(info.contains("\"handbook-ko\"") && info.contains("\"handbook-en\"") && info.contains("sha256:"), info);
            assertTrue(info.contains("vector leg on"), info); // the multilingual model reads the Korean handbook too
            HttpResponse<String> calibration = get(http, admin, "/calibration");
            assertEquals(200, calibration.statusCode(), "measured before startup completes");
            assertTrue(calibration.body().contains("\"perRunBytes\":0") && calibration.body().contains("no reranker configured"),
                    calibration.body());
            String metrics = get(http, admin, "/metrics").body();
            assertTrue(metrics.contains("# TYPE ragsearch_tool_in_flight gauge"), metrics);
            assertTrue(metrics.contains("ragsearch_process_resident_bytes"), metrics);
        } finally {
            p.destroy();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "server stops on SIGTERM");
        }
    }

    @Test
    void startupProblemsExitNonZeroWithTheReason() throws Exception {
        CliRun.Result missing = runInProcess("serve", "--project", "rules=" + dir.resolve("absent"), "--mcp-port", "0", "--admin-port", "0");
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("does not exist"), missing.err());

        Path badConfig = dir.resolve("bad.yaml");
        Files.writeString(badConfig, "projects:\n  - name: x\n    sorce: {directory: y}\n");
        CliRun.Result typo = runInProcess("serve", "--config", badConfig.toString());
        assertEquals(1, typo.exitCode());
        assertTrue(typo.err().contains("sorce"), typo.err());

        CliRun.Result badProject = runInProcess("query", "--project", "noequals", "question");
        assertEquals(1, badProject.exitCode());
        assertTrue(badProject.err().contains("NAME=DIR"), badProject.err());
    }

    @Test
    void queryPrintsRankedArticlesForAPerson() throws Exception {
        Path corpus = Files.createDirectories(dir.resolve("rules"));
        Files.writeString(corpus.resolve("leave.md"), """
                # 휴가규정
                ##### 제1조 (목적)
                이 규정은 휴가를 정한다.
                ##### 제2조 (연차휴가)
                직원에게 매년 15일의 연차휴가를 준다.
                """);
        CliRun.Result r = runInProcess("query", "--project", "rules=" + corpus, "연차휴가 일수");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("== rules (hybrid): gate passed"), r.out());
        assertTrue(r.out().contains(" 1. ") && r.out().contains("휴가규정 제2조 (연차휴가)"), r.out());
    }

    @Test
    void calibratePrintsTheContractJson() throws Exception {
        CliRun.Result r = runInProcess("calibrate", "--reranker", "minilm-pair", "--max-seq-len", "32", "--batch", "4", "--levels", "1,2");
        var json = tools.jackson.databind.json.JsonMapper.builder().build().readTree(r.out());
        for (String field : List.of("method", "memoryLimitBytes", "residentBytes", "perRunBytes", "samples", "batch", "maxSeqLen",
                "intraOpThreads", "rerankerDigest", "measuredAt")) {
            assertTrue(json.has(field), field + " in " + r.out());
        }
        assertEquals(4, json.get("batch").asInt());
        assertEquals(32, json.get("maxSeqLen").asInt());
        // Issue 32: on a busy machine these small runs can raise memory no higher than the noise; that
        // outcome is said (exit 3, a message), never a cost of 0 passed off as measured.
        if (json.get("perRunBytes").asLong() > 0) {
            assertEquals(0, r.exitCode(), r.err());
        } else {
            assertEquals(CalibrateCommand.MEASURED_NOTHING, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains("calibrate: measured nothing: 2 level(s) of concurrent runs of minilm-pair (batch 4 x 32 "
                    + "tokens)"), r.err());
        }
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> javaCommand(String... args) {
        List<String> cmd = ServerJar.command();
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static CliRun.Result runInProcess(String... args) {
        return CliRun.inProcess(args);
    }
}
