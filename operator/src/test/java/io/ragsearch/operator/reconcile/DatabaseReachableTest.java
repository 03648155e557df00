package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.operator.model.Database;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.SecretKeys;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pod keeps serving (and stays ready) through a database outage, so the outage goes to the
 * status: the operator reads each ready pod's /info (real HTTP) and aggregates DatabaseReachable.
 */
class DatabaseReachableTest extends MockOperatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void anOutageOnOnePodShowsInTheStatusAndItsEndToo() {
        String ns = "outage";
        client.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("pg").withNamespace(ns).endMetadata()
                .addToStringData(Database.URL_KEY, "jdbc:postgresql://db/rag").addToStringData(Database.USER_KEY, "rag")
                .addToStringData(Database.PASSWORD_KEY, "pw").build()).create();
        RagSearch r = MockCluster.ragSearch(client, ns, "rules", "1500Mi", "2");
        r.getSpec().database = new Database();
        r.getSpec().database.secretRef = new SecretKeys();
        r.getSpec().database.secretRef.name = "pg";
        r.getSpec().replicas = 2;
        client.resource(r).create();
        Deployment d = await().atMost(WAIT).until(() -> deployment(ns, "rules"), x -> x != null);

        String connected = "{\"version\":\"0.1.0\",\"database\":{\"url\":\"jdbc:postgresql://db/rag\",\"connected\":true}}";
        pods.info("10.7.0.1", connected);
        pods.info("10.7.0.2", connected);
        MockCluster.readyPod(client, d, "rules-a", "10.7.0.1");
        MockCluster.readyPod(client, d, "rules-b", "10.7.0.2");
        // A reconcile may run between the two pods becoming ready: wait for the one that has seen both.
        Condition up = await().atMost(WAIT).until(() -> condition(ns),
                c -> c != null && "True".equals(c.getStatus()) && c.getMessage().startsWith("2 pod(s)"));
        assertEquals("Connected", up.getReason());
        assertTrue(up.getMessage().startsWith("2 pod(s)"), up.getMessage());

        pods.info("10.7.0.2", "{\"database\":{\"connected\":false,\"unreachableSince\":\"2026-12-03T09:00:00Z\","
                + "\"problem\":\"Connection refused\",\"serving\":\"the last good index\"}}");
        Condition down = await().atMost(WAIT).until(() -> condition(ns), c -> c != null && "False".equals(c.getStatus()));
        assertEquals("Unreachable", down.getReason());
        assertTrue(down.getMessage().contains("rules-b (since 2026-12-03T09:00:00Z)") && !down.getMessage().contains("rules-a"),
                down.getMessage());

        pods.info("10.7.0.2", connected);
        Condition back = await().atMost(WAIT).until(() -> condition(ns), c -> c != null && "True".equals(c.getStatus()));
        assertEquals("Connected", back.getReason(), "the outage's end shows without any change to the RagSearch");
    }

    private static Condition condition(String ns) {
        RagSearch r = get(ns, "rules");
        return r == null || r.getStatus() == null ? null
                : Conditions.find(r.getStatus().conditions, Conditions.DATABASE_REACHABLE).orElse(null);
    }
}
