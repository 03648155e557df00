package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.operator.model.Auth;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.SecretKeys;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Pods read Secrets as env at start only: rotating a referenced Secret's data must roll them. */
class SecretRotationTest extends MockOperatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void rotatingTheBearerTokenChangesThePodTemplateAndNothingElseDoes() throws Exception {
        String ns = "rotate";
        client.secrets().inNamespace(ns).resource(token("first-token")).create();
        RagSearch r = MockCluster.ragSearch(client, ns, "rules", "1500Mi", "2");
        r.getSpec().auth = new Auth();
        r.getSpec().auth.bearerTokenSecretRef = new SecretKeys();
        r.getSpec().auth.bearerTokenSecretRef.name = "mcp-token";
        client.resource(r).create();
        Deployment first = await().atMost(WAIT).until(() -> deployment(ns, "rules"), d -> d != null);
        String before = MockCluster.configHash(first);

        // Several reconciles (500 ms apart while no pod is ready): the same Secret keeps the hash all along.
        await().during(Duration.ofSeconds(2)).atMost(WAIT)
                .until(() -> before.equals(MockCluster.configHash(deployment(ns, "rules"))));

        client.secrets().inNamespace(ns).resource(token("rotated-token")).update();
        Deployment rolled = await().atMost(WAIT).until(() -> deployment(ns, "rules"),
                d -> !before.equals(MockCluster.configHash(d)));
        assertNotEquals(before, MockCluster.configHash(rolled));
        assertEquals("mcp-token", rolled.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("RAGSEARCH_AUTH_TOKEN")).findFirst().orElseThrow()
                .getValueFrom().getSecretKeyRef().getName(), "still a reference: the token itself is never in the template");
    }

    private static Secret token(String value) {
        return new SecretBuilder().withNewMetadata().withName("mcp-token").withNamespace("rotate").endMetadata()
                .addToData(Auth.TOKEN_KEY, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))).build();
    }
}
