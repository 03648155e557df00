package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.ragsearch.operator.model.Database;
import io.ragsearch.operator.model.DisruptionBudget;
import io.ragsearch.operator.model.NetworkAccess;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.ProjectSource;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.Rerank;
import io.ragsearch.operator.model.SecretKeys;
import io.ragsearch.operator.reconcile.OwnerGarbageCollector;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.ragsearch.operator.reconcile.MockCluster.events;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad specs leave what runs untouched; optional objects come and go; deletion (owner references) removes everything owned. */
class InvalidSpecAndCleanupTest extends MockOperatorTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void invalidEditsLeaveTheDeploymentAsItWasAndOtherResourcesKeepReconciling() {
        String ns = "invalid";
        client.resource(MockCluster.ragSearch(client, ns, "rules", "1500Mi", "2")).create();
        Deployment before = await().atMost(WAIT).until(() -> deployment(ns, "rules"), d -> d != null);
        await().atMost(WAIT).until(() -> get(ns, "rules").getStatus() != null);

        RagSearch edit = get(ns, "rules");
        edit.getSpec().resources.memory = "lots";
        edit.getSpec().resources.cpu = "2 cores";
        Project twin = new Project();
        twin.name = "handbook";
        twin.source = new ProjectSource();
        twin.source.configMap = "rules-docs";
        edit.getSpec().projects.add(twin);
        edit.getSpec().rerank = new Rerank();
        edit.getSpec().rerank.concurrency = new IntOrString(0);
        edit.getSpec().database = new Database();
        edit.getSpec().database.secretRef = new SecretKeys();
        edit.getSpec().database.secretRef.name = "pg-credentials";
        client.resource(edit).update();

        RagSearch invalid = await().atMost(WAIT).until(() -> get(ns, "rules"),
                r -> Conditions.isTrue(r.getStatus().conditions, Conditions.INVALID_SPEC));
        String message = Conditions.find(invalid.getStatus().conditions, Conditions.INVALID_SPEC).orElseThrow().getMessage();
        for (String expected : new String[]{"spec.resources.memory 'lots' is not a Kubernetes quantity",
                "spec.resources.cpu '2 cores'", "duplicate project name 'handbook'",
                "spec.rerank.concurrency must be auto or at least 1, got 0",
                "secret 'pg-credentials' not found in namespace invalid"}) {
            assertTrue(message.contains(expected), "missing '" + expected + "' in: " + message);
        }
        assertEquals(invalid.getMetadata().getGeneration(), invalid.getStatus().observedGeneration);
        await().atMost(WAIT).until(() -> !events(client, ns, "InvalidSpec").isEmpty());
        assertEquals("Warning", events(client, ns, "InvalidSpec").get(0).getType());
        Deployment after = deployment(ns, "rules");
        assertEquals(before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion(),
                "the running Deployment is not touched");

        // Meanwhile another RagSearch in the same namespace is reconciled as usual.
        client.resource(MockCluster.ragSearch(client, ns, "other", "1Gi", null)).create();
        await().atMost(WAIT).until(() -> deployment(ns, "other"), d -> d != null);

        // Fixing the spec except for the secret: still invalid, naming only the secret.
        RagSearch fix = get(ns, "rules");
        fix.getSpec().resources.memory = "1500Mi";
        fix.getSpec().resources.cpu = "2";
        fix.getSpec().projects.remove(1);
        fix.getSpec().rerank.concurrency = new IntOrString("auto");
        client.resource(fix).update();
        RagSearch onlySecret = await().atMost(WAIT).until(() -> get(ns, "rules"), r -> {
            String m = Conditions.find(r.getStatus().conditions, Conditions.INVALID_SPEC).orElseThrow().getMessage();
            return m.startsWith("spec.database.secretRef: secret 'pg-credentials' not found");
        });
        assertEquals(before.getMetadata().getResourceVersion(), deployment(ns, "rules").getMetadata().getResourceVersion());

        // The secret appears without the RagSearch changing: the next look finds it.
        client.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("pg-credentials")
                .endMetadata().withStringData(Map.of("url", "jdbc:postgresql://db:5432/rag", "user", "rag", "password", "pw"))
                .build()).create();
        await().atMost(WAIT).until(() -> get(ns, "rules"),
                r -> !Conditions.isTrue(r.getStatus().conditions, Conditions.INVALID_SPEC));
        Deployment updated = await().atMost(WAIT).until(() -> deployment(ns, "rules"),
                d -> d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                        .anyMatch(e -> e.getName().equals("RAGSEARCH_DB_PASSWORD")));
        var password = updated.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("RAGSEARCH_DB_PASSWORD")).findFirst().orElseThrow();
        assertEquals("pg-credentials", password.getValueFrom().getSecretKeyRef().getName());
        assertEquals(onlySecret.getMetadata().getUid(), updated.getMetadata().getOwnerReferences().get(0).getUid());
    }

    @Test
    void optionalObjectsFollowTheSpecAndDeletionRemovesEverythingOwned() {
        String ns = "cleanup";
        RagSearch spec = MockCluster.ragSearch(client, ns, "rules", "1500Mi", "2");
        spec.getSpec().podDisruptionBudget = new DisruptionBudget();
        spec.getSpec().networkPolicy = new NetworkAccess();
        spec.getSpec().networkPolicy.clientPodLabels = Map.of("role", "agent");
        spec.getSpec().replicas = 2;
        client.resource(spec).create();

        PodDisruptionBudget pdb = await().atMost(WAIT).until(
                () -> client.resources(PodDisruptionBudget.class).inNamespace(ns).withName("rules").get(), p -> p != null);
        assertEquals(1, pdb.getSpec().getMinAvailable().getIntVal());
        NetworkPolicy np = await().atMost(WAIT).until(
                () -> client.resources(NetworkPolicy.class).inNamespace(ns).withName("rules").get(), p -> p != null);
        assertEquals(Map.of("role", "agent"), np.getSpec().getIngress().get(0).getFrom().get(0).getPodSelector().getMatchLabels());
        assertEquals(8081, np.getSpec().getIngress().get(1).getPorts().get(0).getPort().getIntVal(),
                "the operator can still read /calibration");

        RagSearch edit = get(ns, "rules");
        edit.getSpec().networkPolicy = null;
        client.resource(edit).update();
        await().atMost(WAIT).until(() -> client.resources(NetworkPolicy.class).inNamespace(ns).withName("rules").get() == null);
        assertNotNull(client.resources(PodDisruptionBudget.class).inNamespace(ns).withName("rules").get());

        // Deletion is owner references plus Kubernetes' garbage collector (the mock has none: the stand-in runs here).
        client.resource(get(ns, "rules")).delete();
        OwnerGarbageCollector gc = new OwnerGarbageCollector(client);
        await().atMost(WAIT).until(() -> gc.collect() >= 0 && get(ns, "rules") == null
                && deployment(ns, "rules") == null
                && client.services().inNamespace(ns).withName("rules").get() == null
                && client.configMaps().inNamespace(ns).withName("rules-config").get() == null
                && client.resources(PodDisruptionBudget.class).inNamespace(ns).withName("rules").get() == null);
        assertNotNull(client.configMaps().inNamespace(ns).withName("rules-docs").get(), "the user's own ConfigMap stays");
    }
}
