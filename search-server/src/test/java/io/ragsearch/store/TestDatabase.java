package io.ragsearch.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The throwaway PostgreSQL that scripts/test/postgres.sh starts. Under CI it must be there:
 * a missing database fails the tests instead of skipping them.
 */
final class TestDatabase {

    private TestDatabase() {
    }

    static String url() {
        String url = System.getenv("RAGSEARCH_TEST_DB_URL");
        if (System.getenv("CI") != null) {
            assertNotNull(url, "RAGSEARCH_TEST_DB_URL missing under CI: run the tests through scripts/test/all.sh");
        } else {
            Assumptions.assumeTrue(url != null, "no test database: run through scripts/test/all.sh");
        }
        return url;
    }

    static String user() {
        return System.getenv("RAGSEARCH_TEST_DB_USER");
    }

    static Database open() {
        return new Database(url(), user(), null);
    }

    static void execute(String sql) throws Exception {
        try (Database db = open(); Connection c = db.connection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Stops or starts the test server (outage tests). */
    static void pgCtl(String action) throws Exception {
        String pgCtl = System.getenv("RAGSEARCH_TEST_PG_CTL");
        String data = System.getenv("RAGSEARCH_TEST_PG_DATA");
        String log = System.getenv("RAGSEARCH_TEST_PG_LOG");
        assertNotNull(pgCtl, "RAGSEARCH_TEST_PG_CTL missing");
        ProcessBuilder pb = action.equals("stop")
                ? new ProcessBuilder(pgCtl, "-D", data, "-m", "fast", "-w", "stop")
                : new ProcessBuilder(pgCtl, "-D", data, "-l", log, "-w", "start");
        Process p = pb.redirectErrorStream(true).redirectOutput(Path.of("/dev/null").toFile()).start();
        p.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, p.exitValue(), "pg_ctl " + action);
    }

    /** Runs the ragsearch CLI in this JVM; fails on a non-zero exit, showing its error output. */
    static String cli(String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.StringWriter err = new java.io.StringWriter();
        java.io.PrintStream original = System.out;
        System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            int code = io.ragsearch.cli.RagSearchCli.commandLine().setErr(new java.io.PrintWriter(err, true)).execute(args);
            assertEquals(0, code, err.toString());
            return out.toString(java.nio.charset.StandardCharsets.UTF_8);
        } finally {
            System.setOut(original);
        }
    }
}
