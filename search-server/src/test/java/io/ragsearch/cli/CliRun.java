package io.ragsearch.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** Runs the command line in this JVM and captures what it prints (commands print to System.out). */
final class CliRun {

    private CliRun() {
    }

    record Result(int exitCode, String out, String err) {
    }

    /** Synchronized: System.out is one per JVM. */
    static synchronized Result inProcess(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int code = RagSearchCli.commandLine().setErr(new PrintWriter(err, true)).execute(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(original);
        }
    }
}
