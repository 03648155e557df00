package io.ragsearch.sim.endtoend;

import static io.ragsearch.sim.cluster.Figures.since;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.VerificationStatus;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.MockCluster;
import io.ragsearch.sim.cluster.Figures;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * spec.verification from a RagSearch's first version, on the real control plane: the operator in
 * this JVM, the real controllers, our node agent running real server processes. A version that
 * lost a document held back and a good one promoted are {@link RealClusterEndToEndIT}'s (verification
 * turned on later there); here the first version serves unverified, and a change of the access
 * mode to jwt is verified and promoted.
 */
@ExtendWith(RealClusterExtension.class)
class VerificationEndToEndIT {
    static final Figures FIGURES = new Figures("E2E");
    static final String NAME = "handbook";
    /** The test plane's ServiceAccount token issuer (testplane's --service-account-issuer). */
    static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
    static final String AUDIENCE = "ragsearch.verify";
    static final String CHECKS = TestCluster.handbookChecks("handbook-en");


    /**
     * The first version serves without verification (nothing to compare it with), nor does the
     * tuning re-roll make a candidate. Issue 30: a change to mode jwt is then verified and promoted
     * like any other. The candidate has no token for its own /mcp (none exists in mode jwt), so it
     * asks its tools in process; it holds none a baseline would take either, so it is judged on the
     * checks alone. The keys are the plane's own, as for ServiceAccount tokens in a cluster
     * ({@code kubernetesKeys}); afterwards the serving pods refuse a request without a token and
     * serve the token the API server issued to the ServiceAccount the access rule names.
     */
    @Test
    void theFirstVersionServesUnverifiedAndAChangeToModeJwtIsVerifiedAndPromoted(TestCluster cluster) throws Exception {
        cluster.handbookDocs("handbook-docs");
        cluster.configMap("handbook-checks", Map.of("checks.yaml", CHECKS));
        cluster.startOperator(Duration.ofSeconds(30));
        // EndToEndIT's handbook, verified by the checks in handbook-checks
        cluster.create(EndToEndIT.HANDBOOK + "  verification: {configMap: handbook-checks, timeoutSeconds: 300}\n");
        long t0 = System.nanoTime();
        RagSearch ready = await("Ready, Calibrated and tuned, only pods of the current template").atMost(Duration.ofMinutes(8))
                .pollInterval(Duration.ofMillis(250)).until(() -> cluster.ragSearch(NAME),
                        x -> x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.READY)
                                && Conditions.isTrue(x.getStatus().conditions, Conditions.CALIBRATED)
                                && x.getStatus().rerank.effective.equals(x.getStatus().rerank.safe) && servingPodsOnlyOfCurrentTemplate(cluster));
        FIGURES.note("apply → Ready and tuned (no verification: first version, then a re-tune): %.1f s", since(t0));
        assertEquals("Serving", condition(ready, Conditions.VERIFIED).getReason());
        assertNull(candidate(cluster), "neither the first version nor the tuning re-roll made a candidate");

        // The agent's identity: a ServiceAccount of this namespace; its token is the API server's, for our audience.
        cluster.admin().serviceAccounts().inNamespace(cluster.namespace()).resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                .withNewMetadata().withName("agent-7").endMetadata().build()).create();
        long start = System.nanoTime();
        RagSearch before = cluster.ragSearch(NAME);
        String versionBefore = before.getStatus().verification == null ? null : before.getStatus().verification.version;
        io.ragsearch.operator.model.Auth auth = new io.ragsearch.operator.model.Auth();
        auth.mode = "jwt";
        auth.issuer = ISSUER;
        auth.audiences = List.of(AUDIENCE);
        // The plane's own keys, fetched by each pod with its projected token and the cluster CA; the
        // address is the API server's (the issuer's name resolves to nothing on this machine).
        auth.jwksUrl = cluster.plane().server() + "/openid/v1/jwks";
        auth.kubernetesKeys = true;
        io.ragsearch.operator.model.AccessRule rule = new io.ragsearch.operator.model.AccessRule();
        rule.projects = List.of("handbook-en");
        rule.serviceAccounts = List.of(cluster.namespace() + ":agent-7");
        auth.access = List.of(rule);
        cluster.admin().resources(RagSearch.class).inNamespace(cluster.namespace()).withName(NAME).edit(r -> {
            r.getSpec().auth = auth;
            return r;
        });
        RagSearch promoted = await("the jwt version verified and promoted").atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(200))
                .until(() -> cluster.ragSearch(NAME),
                        x -> x.getStatus().verification != null && VerificationStatus.PROMOTED.equals(x.getStatus().verification.state)
                                && "Passed".equals(x.getStatus().verification.outcome)
                                && !java.util.Objects.equals(versionBefore, x.getStatus().verification.version));
        double tPromoted = since(start);
        await("the roll to the jwt version finished, its candidate gone").atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(200))
                .until(() -> Conditions.isTrue(cluster.ragSearch(NAME).getStatus().conditions, Conditions.READY)
                        && servingPodsOnlyOfCurrentTemplate(cluster) && candidate(cluster) == null);
        var v = promoted.getStatus().verification;
        FIGURES.note("change to mode jwt: promoted %.1f s after the spec change (checks ran %d ms in process, %d passed, %d failed)",
                tPromoted, v.checksMillis, v.passed, v.failed);
        assertEquals("True", condition(promoted, Conditions.VERIFIED).getStatus());
        assertEquals(6, v.passed);

        String ip = cluster.readyEndpoints(NAME).get(0);
        assertEquals(401, initialize(ip, null).statusCode(), "a serving pod of the promoted version wants a token");
        String granted = cluster.admin().serviceAccounts().inNamespace(cluster.namespace()).withName("agent-7")
                .tokenRequest(new io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder().withNewSpec()
                        .withAudiences(List.of(AUDIENCE)).withExpirationSeconds(600L).endSpec().build()).getStatus().getToken();
        java.net.http.HttpResponse<String> served = initialize(ip, granted);
        assertEquals(200, served.statusCode(), served.body());
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

    static boolean servingPodsOnlyOfCurrentTemplate(TestCluster cluster) {
        Deployment d = cluster.deployment(NAME);
        if (d == null) {
            return false;
        }
        String hash = MockCluster.configHash(d);
        List<Pod> pods = cluster.pods(NAME);
        return !pods.isEmpty() && pods.stream().allMatch(p -> hash.equals(p.getMetadata().getLabels().get(io.ragsearch.operator.naming.Labels.CONFIG_HASH)));
    }

    static io.fabric8.kubernetes.api.model.Condition condition(RagSearch r, String type) {
        return Conditions.find(r.getStatus().conditions, type).orElseThrow();
    }

    static Deployment candidate(TestCluster cluster) {
        return cluster.deployment(ObjectNames.candidate(NAME));
    }
}
