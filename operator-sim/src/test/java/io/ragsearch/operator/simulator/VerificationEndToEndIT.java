package io.ragsearch.operator.simulator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.playground.DocsDirectory;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.MockCluster;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * spec.verification end to end: the real operator on the mock API server, the pod simulator
 * running real server processes, a candidate pod running the checks against itself with a
 * serving pod as baseline, and a client searching through the "Service" the whole time.
 */
@EnableKubernetesMockClient(crud = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VerificationEndToEndIT {
    static final String NS = "verify";
    static final String NAME = "handbook";
    static final String CHECKS = """
            set: e2e-handbook
            project: handbook-en
            checks:
              - {id: annual-leave, kind: search, query: "How many days of paid annual leave do I get?",
                 expect: [{document: employee-handbook, article: "Article 10"}], within: 3}
              - {id: documents, kind: list_documents, names: [employee-handbook, expense-policy, it-security]}
              - {id: read-overtime, kind: read_article, document: employee-handbook, article: "Article 7", title: Overtime}
              - {id: missing-project, kind: error, tool: search, arguments: {project: handbook-fr, query: leave},
                 message: unknown project}
              - {id: missing-document, kind: error, tool: read_article,
                 arguments: {project: handbook-en, document: travel-policy, article: "Article 1"}, message: unknown document}
              - {id: tool-schemas, kind: schemas, tools: [list_documents, list_projects, read_article, search]}
            """;

    static KubernetesClient client;
    static OperatorRuntime operator;
    static MockLoop loop;
    static PodSimulator simulator;
    static SearchTraffic traffic;
    static final StringBuilder summary = new StringBuilder();

    @BeforeAll
    static void start() throws Exception {
        loop = MockLoop.start(client, NS, NAME, Duration.ofSeconds(30));
        simulator = loop.simulator;
        operator = loop.operator;
        traffic = loop.traffic;
    }

    @AfterAll
    static void stop() throws Exception {
        if (loop != null) {
            loop.close();
        }
        System.out.println("VERIFICATION E2E SUMMARY\n" + summary);
    }

    @Test
    @Order(1)
    void theFirstVersionServesWithoutVerification() throws Exception {
        Map<String, String> docs = DocsDirectory.data(Path.of("../examples/corpus/en"));
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-docs")
                .withNamespace(NS).endMetadata().withData(docs).build()).create();
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-checks")
                .withNamespace(NS).endMetadata().addToData("checks.yaml", CHECKS).build()).create();
        client.resource(RagSearchFile.parse("verify", """
                apiVersion: ragsearch.io/v1alpha1
                kind: RagSearch
                metadata: {name: handbook, namespace: verify}
                spec:
                  image: ragsearch/search-server:e2e
                  replicas: 1
                  resources: {memory: 1500Mi}
                  models:
                    reranker: {builtin: minilm-pair, maxSeqLen: 128}
                  projects:
                    - name: handbook-en
                      description: the sample handbook
                      language: en
                      source: {configMap: handbook-docs}
                  startupTimeoutSeconds: 300
                  verification: {configMap: handbook-checks, timeoutSeconds: 300}
                """)).create();
        long t0 = System.nanoTime();
        RagSearch ready = await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200)).until(VerificationEndToEndIT::get,
                x -> x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.READY)
                        && Conditions.isTrue(x.getStatus().conditions, Conditions.CALIBRATED)
                        && x.getStatus().rerank.effective.equals(x.getStatus().rerank.safe) && servingPodsOnlyOfCurrentTemplate());
        note("apply → Ready and tuned (no verification: first version, then a re-tune): %.1f s", since(t0));
        assertEquals("Serving", condition(ready, Conditions.VERIFIED).getReason());
        assertNull(candidate(), "neither the first version nor the tuning re-roll made a candidate");
    }

    @Test
    @Order(2)
    void aProjectThatLostADocumentIsHeldBackWhileTheOldPodsServeEveryCall() throws Exception {
        List<String> servingBefore = servingPods();
        String hashBefore = MockCluster.configHash(deployment());
        PodWatch watch = new PodWatch(servingBefore);
        traffic.keepSearching("handbook-en", "expense report deadline");
        traffic.awaitServed(5);
        int servedBefore = traffic.served.get();

        Map<String, String> twoDocuments = new java.util.HashMap<>(client.configMaps().inNamespace(NS).withName("handbook-docs").get().getData());
        twoDocuments.remove("expense-policy.md");
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-docs-partial")
                .withNamespace(NS).endMetadata().withData(twoDocuments).build()).create();
        long start = System.nanoTime();
        RagSearch edit = get();
        edit.getSpec().projects.get(0).source.configMap = "handbook-docs-partial";
        client.resource(edit).update();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> candidate() != null);
        RagSearch held = await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200)).until(VerificationEndToEndIT::get,
                x -> x.getStatus().verification != null && VerificationStatus.HELD_BACK.equals(x.getStatus().verification.state));
        double tHeld = since(start);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> candidate() == null);
        traffic.awaitServed(5);
        traffic.stopSearching();
        watch.close();

        var v = held.getStatus().verification;
        var verified = condition(held, Conditions.VERIFIED);
        note("project lost a document: held back %.1f s after the spec change; checks ran %d ms: %d passed, %d failed; condition %s/%s: %s",
                tHeld, v.checksMillis, v.passed, v.failed, verified.getStatus(), verified.getReason(), verified.getMessage());
        note("searches during the held-back change: %d served, %d failed; serving pods seen not ready or gone: %d of %d polls",
                traffic.served.get() - servedBefore, traffic.failed.get(), watch.missing.size(), watch.polls);
        assertEquals("False", verified.getStatus());
        assertEquals("VerificationFailed", verified.getReason());
        assertTrue(verified.getMessage().contains("documents: "), verified.getMessage());
        assertEquals(0, traffic.failed.get(), String.valueOf(traffic.failures));
        assertEquals(List.of(), watch.missing, "the old pods never stop");
        assertEquals(servingBefore, servingPods());
        assertEquals(hashBefore, MockCluster.configHash(deployment()));
        assertTrue(client.pods().inNamespace(NS).withLabels(Labels.selector(NAME)).list().getItems().stream()
                .allMatch(p -> p.getSpec().getVolumes().stream().noneMatch(vol -> vol.getConfigMap() != null
                        && "handbook-docs-partial".equals(vol.getConfigMap().getName()))), "no serving pod mounts the partial corpus");
        assertTrue(client.v1().events().inNamespace(NS).list().getItems().stream()
                .anyMatch(e -> e.getReason().equals("VerificationFailed") && e.getType().equals("Warning")));
    }

    @Test
    @Order(3)
    void aGoodChangeIsPromotedWithoutAFailedCall() throws Exception {
        String hashBefore = MockCluster.configHash(deployment());
        int failedBefore = traffic.failed.get();
        int servedBefore = traffic.served.get();
        traffic.keepSearching("handbook-en", "expense report deadline");
        traffic.awaitServed(5);

        long start = System.nanoTime();
        RagSearch edit = get();
        edit.getSpec().projects.get(0).source.configMap = "handbook-docs";
        edit.getSpec().projects.get(0).description = "the sample handbook: leave, expenses, IT security";
        client.resource(edit).update();
        RagSearch promoted = await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200)).until(VerificationEndToEndIT::get,
                x -> x.getStatus().verification != null && VerificationStatus.PROMOTED.equals(x.getStatus().verification.state)
                        && "Passed".equals(x.getStatus().verification.outcome));
        double tPromoted = since(start);
        assertNotEquals(hashBefore, MockCluster.configHash(deployment()), "the serving Deployment rolls to the new version");
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200)).until(() ->
                Conditions.isTrue(get().getStatus().conditions, Conditions.READY) && servingPodsOnlyOfCurrentTemplate() && candidate() == null);
        double tRolled = since(start);
        traffic.awaitServed(5);
        traffic.stopSearching();

        var v = promoted.getStatus().verification;
        note("good change: promoted %.1f s after the spec change (checks ran %d ms, %d passed); roll finished after %.1f s",
                tPromoted, v.checksMillis, v.passed, tRolled);
        note("searches during the promoted change: %d served, %d failed", traffic.served.get() - servedBefore,
                traffic.failed.get() - failedBefore);
        assertEquals("True", condition(promoted, Conditions.VERIFIED).getStatus());
        assertEquals(6, v.passed);
        assertEquals(failedBefore, traffic.failed.get(), String.valueOf(traffic.failures));
        assertTrue(client.configMaps().inNamespace(NS).withName(ObjectNames.configMap(NAME)).get().getData().get(PodLayout.CONFIG_FILE)
                .contains("IT security"));
        assertTrue(client.v1().events().inNamespace(NS).list().getItems().stream().anyMatch(e -> e.getReason().equals("Promoted")));
    }

    /**
     * Issue 30: a change to mode jwt is verified and promoted like any other. The candidate has no
     * token for its own /mcp (none exists in mode jwt), so it asks its tools in process; it holds none
     * a baseline would take either, so it is judged on the checks alone. The keys come from a JWKS on
     * loopback; afterwards the serving pods refuse a request without a token and serve the granted one.
     */
    @Test
    @Order(4)
    void aChangeToModeJwtIsVerifiedAndPromoted() throws Exception {
        java.security.KeyPairGenerator gen = java.security.KeyPairGenerator.getInstance("EC");
        gen.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
        java.security.KeyPair keys = gen.generateKeyPair();
        com.sun.net.httpserver.HttpServer jwks = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        byte[] set = ("{\"keys\":[" + publicJwk((java.security.interfaces.ECPublicKey) keys.getPublic()) + "]}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        jwks.createContext("/jwks", ex -> {
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, set.length);
            ex.getResponseBody().write(set);
            ex.close();
        });
        jwks.start();
        String issuer = "http://127.0.0.1:" + jwks.getAddress().getPort();
        try {
            long start = System.nanoTime();
            RagSearch edit = get();
            String versionBefore = edit.getStatus().verification.version;
            io.ragsearch.operator.model.Auth auth = new io.ragsearch.operator.model.Auth();
            auth.mode = "jwt";
            auth.issuer = issuer;
            auth.audiences = List.of("ragsearch.verify");
            auth.jwksUrl = issuer + "/jwks";
            io.ragsearch.operator.model.AccessRule rule = new io.ragsearch.operator.model.AccessRule();
            rule.projects = List.of("handbook-en");
            rule.subjects = List.of("agent-7");
            auth.access = List.of(rule);
            edit.getSpec().auth = auth;
            client.resource(edit).update();
            RagSearch promoted = await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200)).until(VerificationEndToEndIT::get,
                    x -> x.getStatus().verification != null && VerificationStatus.PROMOTED.equals(x.getStatus().verification.state)
                            && "Passed".equals(x.getStatus().verification.outcome)
                            && !versionBefore.equals(x.getStatus().verification.version));
            double tPromoted = since(start);
            await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200)).until(() ->
                    Conditions.isTrue(get().getStatus().conditions, Conditions.READY) && servingPodsOnlyOfCurrentTemplate() && candidate() == null);
            var v = promoted.getStatus().verification;
            note("change to mode jwt: promoted %.1f s after the spec change (checks ran %d ms in process, %d passed, %d failed)",
                    tPromoted, v.checksMillis, v.passed, v.failed);
            assertEquals("True", condition(promoted, Conditions.VERIFIED).getStatus());
            assertEquals(6, v.passed);

            String ip = client.pods().inNamespace(NS).withName(servingPods().get(0)).get().getStatus().getPodIP();
            assertEquals(401, initialize(ip, null).statusCode(), "a serving pod of the promoted version wants a token");
            String granted = es256(keys.getPrivate(), "{\"alg\":\"ES256\",\"kid\":\"k1\",\"typ\":\"JWT\"}",
                    "{\"iss\":\"" + issuer + "\",\"aud\":\"ragsearch.verify\",\"sub\":\"agent-7\",\"iat\":" + (System.currentTimeMillis() / 1000)
                            + ",\"exp\":" + (System.currentTimeMillis() / 1000 + 600) + "}");
            java.net.http.HttpResponse<String> served = initialize(ip, granted);
            assertEquals(200, served.statusCode(), served.body());
        } finally {
            jwks.stop(0);
        }
    }

    private static java.net.http.HttpResponse<String> initialize(String ip, String token) throws Exception {
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + ip + ":8080/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}}"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return java.net.http.HttpClient.newHttpClient().send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    private static String publicJwk(java.security.interfaces.ECPublicKey key) {
        return "{\"kty\":\"EC\",\"crv\":\"P-256\",\"kid\":\"k1\",\"use\":\"sig\",\"alg\":\"ES256\",\"x\":\""
                + b64(unsigned32(key.getW().getAffineX())) + "\",\"y\":\"" + b64(unsigned32(key.getW().getAffineY())) + "\"}";
    }

    /** A coordinate as JWK wants it: exactly 32 big-endian bytes. */
    private static byte[] unsigned32(java.math.BigInteger n) {
        byte[] raw = n.toByteArray();
        byte[] out = new byte[32];
        int copy = Math.min(32, raw.length);
        System.arraycopy(raw, raw.length - copy, out, 32 - copy, copy);
        return out;
    }

    private static String es256(java.security.PrivateKey key, String header, String claims) throws Exception {
        String signingInput = b64(header.getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "."
                + b64(claims.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.security.Signature sig = java.security.Signature.getInstance("SHA256withECDSAinP1363Format");
        sig.initSign(key);
        sig.update(signingInput.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        return signingInput + "." + b64(sig.sign());
    }

    private static String b64(byte[] bytes) {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Polls the serving pods every 200 ms and records each poll where one of them was not ready or gone. */
    static final class PodWatch implements AutoCloseable {
        final List<String> missing = new CopyOnWriteArrayList<>();
        volatile int polls;
        private volatile boolean running = true;
        private final Thread thread;

        PodWatch(List<String> names) {
            thread = new Thread(() -> {
                while (running) {
                    List<String> now = servingPods();
                    names.stream().filter(n -> !now.contains(n)).forEach(n -> missing.add(n + " at poll " + polls));
                    polls++;
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "pod-watch");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(5000);
        }
    }

    /** Names of the ready pods the Service selects. */
    static List<String> servingPods() {
        return client.pods().inNamespace(NS).withLabels(Labels.selector(NAME)).list().getItems().stream()
                .filter(io.ragsearch.operator.reconcile.RolloutPods::ready).map(p -> p.getMetadata().getName()).sorted().toList();
    }

    static boolean servingPodsOnlyOfCurrentTemplate() {
        Deployment d = deployment();
        if (d == null) {
            return false;
        }
        String hash = MockCluster.configHash(d);
        List<Pod> pods = client.pods().inNamespace(NS).withLabels(Labels.selector(NAME)).list().getItems();
        return !pods.isEmpty() && pods.stream().allMatch(p -> hash.equals(p.getMetadata().getLabels().get(Labels.CONFIG_HASH)));
    }

    static io.fabric8.kubernetes.api.model.Condition condition(RagSearch r, String type) {
        return Conditions.find(r.getStatus().conditions, type).orElseThrow();
    }

    static Deployment candidate() {
        return client.apps().deployments().inNamespace(NS).withName(ObjectNames.candidate(NAME)).get();
    }

    static Deployment deployment() {
        return client.apps().deployments().inNamespace(NS).withName(NAME).get();
    }

    static RagSearch get() {
        return client.resources(RagSearch.class).inNamespace(NS).withName(NAME).get();
    }

    static double since(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    static void note(String format, Object... args) {
        String line = String.format(format, args);
        summary.append(line).append('\n');
        System.out.println("E2E " + line);
    }

}
