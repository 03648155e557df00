package io.ragsearch.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vector-index bench run small: both forms built, persisted and reopened, every variant measured. */
class VectorIndexBenchTest {

    @TempDir
    Path dir;

    @Test
    void printsBuildMemoryRecallAndLatencyForEachForm() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchCli.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)).execute(
                "vector-index", "--sizes", "600", "--dimension", "32", "--clusters", "6", "--queries", "20", "--candidates", "60",
                "--work", dir.toString());
        String report = out.toString();
        assertEquals(0, code, err + report);
        assertTrue(report.contains("#### 600 vectors (synthetic)"), report);
        for (String form : new String[] {"float", "int8"}) {
            // 60 candidates of 600 articles: the graph finds nearly every true neighbour at this size.
            Matcher row = Pattern.compile("\\| " + form + " \\| 60 \\| ([0-9.]+) \\|").matcher(report);
            assertTrue(row.find(), form + " row missing:\n" + report);
            assertTrue(Double.parseDouble(row.group(1)) >= 0.95, form + " recall " + row.group(1));
            assertTrue(Files.isDirectory(dir.resolve("600-" + form)), "graph persisted for " + form);
        }
        assertTrue(report.contains("| exact | all | 1.0000 |"), report);
        assertTrue(report.toLowerCase(Locale.ROOT).contains("process after 600: rss"), report);
    }

    @Test
    void aGraphLeftInTheWorkDirectoryIsReopenedNotBuiltAgain() throws Exception {
        String[] args = {"vector-index", "--sizes", "400", "--dimension", "16", "--clusters", "4", "--queries", "20", "--candidates", "40",
                "--forms", "int8", "--work", dir.toString()};
        StringWriter first = new StringWriter();
        assertEquals(0, BenchCli.commandLine().setOut(new PrintWriter(first, true)).execute(args), first.toString());
        assertTrue(Pattern.compile("\\| int8 \\| [0-9.]+ \\| [0-9.]+ \\|").matcher(first.toString()).find(), "built first:\n" + first);
        StringWriter second = new StringWriter();
        assertEquals(0, BenchCli.commandLine().setOut(new PrintWriter(second, true)).execute(args), second.toString());
        assertTrue(second.toString().contains("| int8 | kept | kept |"), "reopened the second time:\n" + second);
        // Another size is other vectors: its graph is built, not the kept one reused.
        StringWriter other = new StringWriter();
        args[2] = "500";
        assertEquals(0, BenchCli.commandLine().setOut(new PrintWriter(other, true)).execute(args), other.toString());
        assertTrue(!other.toString().contains("kept"), "a new size is built:\n" + other);
    }

    @Test
    void anUnknownFormIsRefusedWithTheChoices() {
        StringWriter err = new StringWriter();
        int code = BenchCli.commandLine().setErr(new PrintWriter(err, true)).execute("vector-index", "--sizes", "10", "--forms", "int4",
                "--work", dir.toString());
        assertEquals(2, code);
        assertTrue(err.toString().contains("--forms takes float, int8, before or none, not int4"), err.toString());
    }
}
