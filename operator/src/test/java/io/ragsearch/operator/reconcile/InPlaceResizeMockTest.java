package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.ragsearch.operator.model.RagSearch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.ragsearch.operator.reconcile.MockCluster.configHash;
import static io.ragsearch.operator.reconcile.MockCluster.env;
import static io.ragsearch.operator.reconcile.MockCluster.events;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A memory edit on a cluster that says it is Kubernetes 1.37: the Deployment's template is left as
 * it runs (no roll) and the decision is in place, with its event; the pods are moved by the resize
 * subresource (on the real plane: NodeAgentResizeIT, the in-place end-to-end test).
 */
@EnableKubernetesMockClient(crud = true)
class InPlaceResizeMockTest {
    private static final long MIB = 1024 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(30);
    static KubernetesMockServer server;
    static KubernetesClient client;
    static OperatorRuntime operator;
    static FakePodAdminEndpoints pods;

    @BeforeAll
    static void start() throws Exception {
        server.setVersionInfo(new io.fabric8.kubernetes.client.VersionInfo.Builder().withMajor("1").withMinor("37")
                .withGitVersion("v1.37.2").build());
        pods = new FakePodAdminEndpoints();
        operator = MockCluster.startOperator(client, pods);
    }

    @AfterAll
    static void stop() {
        operator.close();
        pods.close();
    }

    @Test
    void aMemoryOnlyEditKeepsTheTemplateAndIsResizedInPlace() {
        String ns = "inplace";
        client.resource(MockCluster.ragSearch(client, ns, "rules", "2000Mi", "4")).create();
        Deployment first = await().atMost(WAIT).until(() -> MockCluster.deployment(client, ns, "rules"), x -> x != null);
        pods.measure("10.2.0.1", 400 * MIB, 300 * MIB, 2000 * MIB, "sha256:aaa");
        MockCluster.readyPod(client, first, "rules-a", "10.2.0.1");
        Deployment tuned = await().atMost(WAIT).until(() -> MockCluster.deployment(client, ns, "rules"),
                x -> "4".equals(env(x, "RAGSEARCH_RERANK_CONCURRENCY")));
        // The roll to the tuned template finished, as a Deployment controller would do it (the mock has none):
        // in place needs the running pods to be the template's.
        client.pods().inNamespace(ns).withName("rules-a").delete();
        MockCluster.readyPod(client, tuned, "rules-b", "10.2.0.1");

        client.resources(RagSearch.class).inNamespace(ns).withName("rules").edit(r -> {
            r.getSpec().resources.memory = "1200Mi";
            return r;
        });
        RagSearch decided = await().atMost(WAIT).until(() -> MockCluster.get(client, ns, "rules"),
                x -> x.getStatus().resize != null && x.getStatus().resize.memoryLimitBytes == 1200 * MIB);
        assertEquals("InPlace", decided.getStatus().resize.mode, events(client, ns, decided.getStatus().resize.reason).toString());
        assertEquals(ResizePlanner.REASON_IN_PLACE, decided.getStatus().resize.reason);
        assertEquals(2000 * MIB, decided.getStatus().resize.templateMemoryLimitBytes);
        assertTrue(decided.getStatus().resize.requestedAt != null);
        await().atMost(WAIT).until(() -> !events(client, ns, ResizePlanner.REASON_IN_PLACE).isEmpty());
        Deployment kept = MockCluster.deployment(client, ns, "rules");
        assertEquals(configHash(tuned), configHash(kept), "the template is not changed: no roll");
        assertEquals("2000Mi", kept.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().get("memory")
                .toString());
        assertEquals("4", env(kept, "RAGSEARCH_RERANK_CONCURRENCY"), "the template keeps its own limit's concurrency");
        assertEquals(0, decided.getStatus().resize.podsResized, "the fake pod has no live bound: nothing is lowered blind");

        // An edit that is not only limits rolls, and carries the new limits with it.
        client.resources(RagSearch.class).inNamespace(ns).withName("rules").edit(r -> {
            r.getSpec().image = "ragsearch/server:other";
            return r;
        });
        Deployment rolled = await().atMost(WAIT).until(() -> MockCluster.deployment(client, ns, "rules"),
                x -> "ragsearch/server:other".equals(x.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()));
        assertEquals("1200Mi", rolled.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().get("memory")
                .toString());
    }

    @Test
    void aCpuOnlyEditIsResizedInPlaceToo() {
        String ns = "inplace-cpu";
        client.resource(MockCluster.ragSearch(client, ns, "rules", "2000Mi", "4")).create();
        Deployment first = await().atMost(WAIT).until(() -> MockCluster.deployment(client, ns, "rules"), x -> x != null);
        pods.measure("10.2.0.2", 400 * MIB, 300 * MIB, 2000 * MIB, "sha256:aaa");
        MockCluster.readyPod(client, first, "rules-a", "10.2.0.2");
        Deployment tuned = await().atMost(WAIT).until(() -> MockCluster.deployment(client, ns, "rules"),
                x -> "4".equals(env(x, "RAGSEARCH_RERANK_CONCURRENCY")));
        client.pods().inNamespace(ns).withName("rules-a").delete();
        MockCluster.readyPod(client, tuned, "rules-b", "10.2.0.2");

        // The operator writes the status meanwhile: an edit that meets its write (409) is made again.
        await("the CPU edit accepted").atMost(WAIT).ignoreExceptionsInstanceOf(io.fabric8.kubernetes.client.KubernetesClientException.class)
                .until(() -> client.resources(RagSearch.class).inNamespace(ns).withName("rules").edit(r -> {
                    r.getSpec().resources.cpu = "2";
                    return r;
                }) != null);
        RagSearch decided = await().atMost(WAIT).until(() -> MockCluster.get(client, ns, "rules"),
                x -> x.getStatus().resize != null && Long.valueOf(2000).equals(x.getStatus().resize.cpuLimitMillis));
        assertEquals("InPlace", decided.getStatus().resize.mode, events(client, ns, decided.getStatus().resize.reason).toString());
        assertEquals(2000 * MIB, decided.getStatus().resize.memoryLimitBytes);
        await().atMost(WAIT).until(() -> events(client, ns, ResizePlanner.REASON_IN_PLACE).stream()
                .anyMatch(e -> e.getMessage().contains("cpu 4000m → memory 2000 MiB, cpu 2000m")));
        Deployment kept = MockCluster.deployment(client, ns, "rules");
        assertEquals(configHash(tuned), configHash(kept), "the template is not changed: no roll");
        assertEquals("4", kept.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().get("cpu").toString());
    }
}
