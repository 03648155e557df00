package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRuleBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.ragsearch.operator.naming.PodLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two operator replicas on one mock API server, each with its own connection: one leads, the
 * other only watches; when the leader's process dies (its connection gone: no renewal, no
 * release), the other takes the Lease over and reconciles what changed meanwhile; when the
 * leader stops cleanly, it releases the Lease and the other leads at its next try.
 */
@EnableKubernetesMockClient(crud = true)
class LeaderElectionTest {
    static KubernetesMockServer server;
    static KubernetesClient client;

    static final String LEASE_NAMESPACE = "operators";
    /** Short timings so the test takes seconds; the chart uses Kubernetes' 15 / 10 / 2 s. */
    static final Duration LEASE = Duration.ofSeconds(3);

    private final List<AutoCloseable> started = new ArrayList<>();

    @BeforeAll
    static void crdAndAuthorizer() throws Exception {
        MockCluster.quietMockServer();
        MockCluster.installCrd(client);
        // JOSDK asks whether it may use Leases before it campaigns; the mock has no authorizer.
        server.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReturn(201, leaseRules()).always();
    }

    @AfterEach
    void stopAll() throws Exception {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
    }

    @Test
    void theFollowerTakesOverWhenTheLeaderDiesAndReconcilesGoOn() throws Exception {

        KubernetesClient firstConnection = server.createClient();
        OperatorRuntime first = replica(firstConnection, "operator-a");
        await().atMost(Duration.ofSeconds(20)).until(() -> "operator-a".equals(holder()));
        OperatorRuntime second = replica(server.createClient(), "operator-b");
        await().atMost(Duration.ofSeconds(20)).until(second::healthy);

        String ns = "team";
        client.resource(MockCluster.ragSearch(client, ns, "before", "1500Mi", "2")).create();
        await().atMost(Duration.ofSeconds(20)).until(() -> MockCluster.deployment(client, ns, "before") != null);
        assertEquals("operator-a", holder(), "the follower did not take the Lease while the leader renewed it");

        // The leader's process dies: its connection goes first, so it neither renews nor releases.
        long died = System.nanoTime();
        firstConnection.close();
        client.resource(MockCluster.ragSearch(client, ns, "during", "1500Mi", "2")).create();

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> "operator-b".equals(holder()));
        double takeover = (System.nanoTime() - died) / 1e9;
        Deployment during = await().atMost(Duration.ofSeconds(20)).until(() -> MockCluster.deployment(client, ns, "during"),
                d -> d != null);
        double reconciled = (System.nanoTime() - died) / 1e9;
        System.out.printf("failover: lease %d s, taken over %.1f s after the leader died, its backlog reconciled at %.1f s%n",
                LEASE.toSeconds(), takeover, reconciled);
        assertTrue(takeover < LEASE.toSeconds() + 5, "took over in " + takeover + " s");
        assertEquals("2", during.getSpec().getTemplate().getSpec().getContainers().get(0).getResources()
                .getLimits().get("cpu").toString());

        // Changes after the takeover reach the cluster too.
        var edit = MockCluster.get(client, ns, "before");
        edit.getSpec().resources.memory = "2Gi";
        client.resource(edit).update();
        await().atMost(Duration.ofSeconds(20)).until(() -> "2Gi".equals(MockCluster.deployment(client, ns, "before")
                .getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().get("memory").toString()));
        assertNull(MockCluster.deployment(client, "other", "before"));
        first.close();
    }

    @Test
    void aLeaderThatStopsCleanlyHandsTheLeaseOnLongBeforeItWouldExpire() throws Exception {
        // A long lease: only a release explains a takeover within seconds.
        Duration lease = Duration.ofSeconds(60);
        // As in a pod: a leader that loses the Lease exits — but stopping on purpose must not call
        // System.exit (in a shutdown hook it blocks for ever; here it would end the test JVM).
        OperatorRuntime first = replica(server.createClient(), "operator-a", lease, true);
        await().atMost(Duration.ofSeconds(20)).until(() -> "operator-a".equals(holder()));
        OperatorRuntime second = replica(server.createClient(), "operator-b", lease, false);
        await().atMost(Duration.ofSeconds(20)).until(second::healthy);

        long stopped = System.nanoTime();
        first.close();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> "operator-b".equals(holder()));
        double takeover = (System.nanoTime() - stopped) / 1e9;
        System.out.printf("clean stop: lease %d s, the follower leads %.1f s after the leader's close()%n", lease.toSeconds(), takeover);
        assertTrue(takeover < 10, "took over in " + takeover + " s");
        String ns = "handed-over";
        client.resource(MockCluster.ragSearch(client, ns, "after", "1500Mi", "2")).create();
        await().atMost(Duration.ofSeconds(20)).until(() -> MockCluster.deployment(client, ns, "after") != null);
    }

    private OperatorRuntime replica(KubernetesClient connection, String identity) {
        return replica(connection, identity, LEASE, false);
    }

    private OperatorRuntime replica(KubernetesClient connection, String identity, Duration lease, boolean exitOnStopLeading) {
        OperatorRuntime r = new OperatorRuntime(connection, new FakePodAdminEndpoints(),
                new RagSearchReconciler.Settings(Duration.ofMillis(500), Duration.ofSeconds(30), PodLayout.ADMIN_PORT), Set.of(),
                new LeaderElection("ragsearch-operator-lock", LEASE_NAMESPACE, identity, lease, lease.minusSeconds(1),
                        Duration.ofMillis(250), exitOnStopLeading));
        started.add(connection);
        started.add(() -> {
            try {
                r.close();
            } catch (RuntimeException e) {
                // a dead replica's stop cannot reach the API server
            }
        });
        r.start();
        return r;
    }

    private static String holder() {
        Lease lease = client.leases().inNamespace(LEASE_NAMESPACE).withName("ragsearch-operator-lock").get();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    private static SelfSubjectRulesReview leaseRules() {
        return new SelfSubjectRulesReviewBuilder().withNewStatus().withIncomplete(false)
                .withResourceRules(new ResourceRuleBuilder().withApiGroups("coordination.k8s.io").withResources("leases")
                        .withVerbs("get", "create", "update", "patch").build())
                .endStatus().build();
    }
}
