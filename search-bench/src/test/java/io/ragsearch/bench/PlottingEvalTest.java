package io.ragsearch.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.server.SampleCorpus;
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

/** The bench jar's eval draws the gate's trade-off that the server's eval only prints. */
class PlottingEvalTest {

    @TempDir
    Path dir;

    @Test
    void sweepWithPlotWritesOnePngPerSet() throws Exception {
        System.setProperty("java.awt.headless", "true");
        Path questions = dir.resolve("q.yaml");
        Files.writeString(questions, """
                set: plot-check
                project: handbook-en
                questions:
                  - id: a
                    kind: keyword
                    query: "What are the rules for remote work?"
                    expect:
                      - {document: "employee-handbook", article: "Article 6"}
                  - id: b
                    kind: unanswerable
                    query: "How many days of bereavement leave do I get?"
                    refused: true
                """);
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = BenchCli.commandLine().setErr(new PrintWriter(err, true)).execute("eval", "--project",
                    "handbook-en=" + SampleCorpus.locate().resolve("en"), "--sweep", "--plot", dir.resolve("plots").toString(),
                    questions.toString());
        } finally {
            System.setOut(original);
        }
        assertEquals(0, code, err.toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("gate trade-off on plot-check"), out.toString(StandardCharsets.UTF_8));
        byte[] png = Files.readAllBytes(dir.resolve("plots/plot-check-gate.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
        assertTrue(png.length > 5_000, "a drawn chart");
    }
}
