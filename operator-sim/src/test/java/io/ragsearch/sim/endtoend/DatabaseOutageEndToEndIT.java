package io.ragsearch.sim.endtoend;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.SearchTraffic;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.cluster.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.ragsearch.sim.cluster.Figures.since;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A database blink must not empty the Service: two replicas on the real control plane (our node
 * agent running their server processes) serve a project from the real test PostgreSQL, the
 * database is stopped for 20 s while a client searches through the ready pods, and every search is
 * answered from the last good index; both pods stay endpoints, and the RagSearch status shows the
 * outage and its end.
 */
@ExtendWith(RealClusterExtension.class)
class DatabaseOutageEndToEndIT {
    static final String NAME = "rules";
    static final String DATABASE = "ragsearch_outage";
    static final Duration OUTAGE = Duration.ofSeconds(20);

    static String adminUrl;
    static String outageUrl;

    @BeforeAll
    static void start() throws Exception {
        adminUrl = System.getenv("RAGSEARCH_TEST_DB_URL");
        if (System.getenv("CI") != null) {
            assertNotNull(adminUrl, "RAGSEARCH_TEST_DB_URL missing under CI: run the tests through scripts/test/all.sh");
        }
        Assumptions.assumeTrue(adminUrl != null, "no test PostgreSQL (run through scripts/test/all.sh)");
        // A database of its own: the server module's tests serve every project of the shared one.
        outageUrl = adminUrl.substring(0, adminUrl.lastIndexOf('/') + 1) + DATABASE;
        sql("DROP DATABASE IF EXISTS " + DATABASE);
        sql("CREATE DATABASE " + DATABASE);
        ingest();
    }

    @AfterAll
    static void stop() throws Exception {
        if (outageUrl != null) {
            pgCtl("start"); // in case an assertion left it stopped
            sql("DROP DATABASE IF EXISTS " + DATABASE);
        }
    }

    @Test
    void searchesAreAnsweredThroughADatabaseOutageAndTheStatusTellsIt(TestCluster cluster) throws Exception {
        String ns = cluster.namespace();
        // Settled reconciles every 3 s here (5 min by default), so the outage's start shows within the test.
        cluster.startOperator(Duration.ofSeconds(3));
        SearchTraffic traffic = cluster.traffic(NAME);
        cluster.admin().secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("db").withNamespace(ns).endMetadata()
                .withData(Map.of("url", b64(outageUrl), "user", b64(System.getenv("RAGSEARCH_TEST_DB_USER")), "password", b64("unused")))
                .build()).create();
        cluster.create("""
                apiVersion: ragsearch.io/v1alpha1
                kind: RagSearch
                metadata: {name: rules}
                spec:
                  image: ragsearch/search-server:e2e
                  replicas: 2
                  resources: {memory: 1000Mi}
                  database: {secretRef: {name: db}}
                  projects:
                    - name: handbook
                      description: the sample handbook, from PostgreSQL
                      source: {database: true}
                  startupTimeoutSeconds: 300
                """);
        await("2 ready endpoints and DatabaseReachable True").atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(250)).until(() ->
                cluster.readyEndpoints(NAME).size() == 2 && condition(cluster, Conditions.DATABASE_REACHABLE).map(c -> c.getStatus().equals("True")).orElse(false));

        traffic.keepSearching("handbook", "how many days of annual leave");
        traffic.awaitServed(5);
        pgCtl("stop");
        long stoppedAt = System.nanoTime();
        int fewestEndpoints = Integer.MAX_VALUE;
        double outageShownAfter = -1;
        while (System.nanoTime() - stoppedAt < OUTAGE.toNanos()) {
            fewestEndpoints = Math.min(fewestEndpoints, cluster.readyEndpoints(NAME).size());
            if (outageShownAfter < 0 && condition(cluster, Conditions.DATABASE_REACHABLE).map(c -> c.getStatus().equals("False")).orElse(false)) {
                outageShownAfter = since(stoppedAt);
            }
            Thread.sleep(200); // a sampling interval over the fixed outage, not a wait for something
        }
        int servedDuringOutage = traffic.served.get();
        pgCtl("start");
        long startedAt = System.nanoTime();
        await("DatabaseReachable True after the restart").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> condition(cluster, Conditions.DATABASE_REACHABLE).map(c -> c.getStatus().equals("True")).orElse(false));
        double endShownAfter = since(startedAt);
        traffic.awaitServed(5);
        traffic.stopSearching();

        System.out.printf(Locale.ROOT, "E2E-DB: outage %d s; searches served %d (%d by its end), failed %d; fewest ready endpoints %d;"
                        + " DatabaseReachable False after %.1f s, True again %.1f s after the restart%n", OUTAGE.toSeconds(),
                traffic.served.get(), servedDuringOutage, traffic.failed.get(), fewestEndpoints, outageShownAfter, endShownAfter);
        assertEquals(0, traffic.failed.get(), "failed searches: " + traffic.failures);
        assertTrue(traffic.served.get() > 10, "searches served: " + traffic.served.get());
        assertEquals(2, fewestEndpoints, "both pods stay endpoints through the outage");
        assertTrue(outageShownAfter >= 0, "the status never showed the outage: " + condition(cluster, Conditions.DATABASE_REACHABLE));
    }

    private static Optional<Condition> condition(TestCluster cluster, String type) {
        RagSearch r = cluster.ragSearch(NAME);
        if (r == null || r.getStatus() == null || r.getStatus().conditions == null) {
            return Optional.empty();
        }
        return r.getStatus().conditions.stream().filter(c -> c.getType().equals(type)).findFirst();
    }

    private static void ingest() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                ServerJar.path().toString(), "ingest", "--db", outageUrl, "--user", System.getenv("RAGSEARCH_TEST_DB_USER"),
                "--project", "handbook", "../examples/corpus/en").redirectErrorStream(true);
        pb.environment().put("RAGSEARCH_DB_PASSWORD", "unused");
        // Our node runs the pods from the plain jar without the image's built-in models, so they embed queries with
        // MiniLM; the ingest must store MiniLM vectors too, not those of the multilingual model this machine has.
        pb.environment().remove("HOME");
        pb.environment().remove("XDG_CACHE_HOME");
        pb.environment().put("RAGSEARCH_BUILTIN_MODELS", Files.createTempDirectory("no-builtin-models").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ingest did not finish");
        assertEquals(0, p.exitValue(), out);
    }

    private static void sql(String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(adminUrl, System.getenv("RAGSEARCH_TEST_DB_USER"), "unused");
             Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static void pgCtl(String action) throws Exception {
        String pgCtl = System.getenv("RAGSEARCH_TEST_PG_CTL");
        String data = System.getenv("RAGSEARCH_TEST_PG_DATA");
        String log = System.getenv("RAGSEARCH_TEST_PG_LOG");
        ProcessBuilder pb = action.equals("stop")
                ? new ProcessBuilder(pgCtl, "-D", data, "-m", "fast", "-w", "stop")
                : new ProcessBuilder(pgCtl, "-D", data, "-l", log, "-w", "start");
        Process p = pb.redirectErrorStream(true).redirectOutput(Path.of("/dev/null").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "pg_ctl " + action + " did not finish");
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
