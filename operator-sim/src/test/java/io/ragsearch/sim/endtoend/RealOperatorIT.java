package io.ragsearch.sim.endtoend;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.reconcile.FakePodAdminEndpoints;
import io.ragsearch.operator.reconcile.LeaderElection;
import io.ragsearch.operator.reconcile.MockCluster;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.operator.reconcile.RagSearchReconciler;
import io.ragsearch.sim.plane.ControlPlane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator on the real control plane, as it runs in a cluster: the chart's RBAC installed,
 * the operator's client impersonating the chart's ServiceAccount (a verb the chart forgot fails
 * here), server-side apply on, the Lease taken. Its Deployment is taken further by the real
 * controllers (ReplicaSet, Pods), and deleting the RagSearch lets the real garbage collector
 * remove every child. No kubelet: the pods stay Pending.
 */
class RealOperatorIT {
    /** helm-java renders as Kubernetes v1.20.0: the chart without its kubeVersion line (HelmJavaChart says why). */
    static final Path CHART = io.ragsearch.operator.helm.HelmJavaChart.path();
    static final String RELEASE = "rs";
    static final String SERVICE_ACCOUNT = "rs-ragsearch-operator";

    static ControlPlane plane;
    static KubernetesClient admin;
    static KubernetesClient asOperator;
    static OperatorRuntime operator;
    static FakePodAdminEndpoints pods;
    static String ops;
    static String apps;

    @BeforeAll
    static void installAndStart() throws Exception {
        plane = ControlPlane.get();
        admin = plane.adminClient();
        plane.applyRagSearchCrd(admin);
        ops = plane.namespace("ops");
        apps = plane.namespace("apps");
        // the chart's ServiceAccount, roles and bindings, as Helm would install them (not its Deployment:
        // the operator runs in this JVM, as that ServiceAccount; nor its CRD, applied above)
        String rendered = new Helm(CHART).template().withName(RELEASE).withNamespace(ops).call();
        for (HasMetadata o : HelmObjects.parse(rendered)) {
            if (!(o instanceof Deployment) && !(o instanceof CustomResourceDefinition)) {
                admin.resource(o).serverSideApply();
            }
        }
        Config config = Config.fromKubeconfig(Files.readString(plane.kubeconfigFile()));
        config.setImpersonateUsername("system:serviceaccount:" + ops + ":" + SERVICE_ACCOUNT);
        config.setImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + ops, "system:authenticated");
        asOperator = new KubernetesClientBuilder().withConfig(config).build();
        pods = new FakePodAdminEndpoints();
        operator = new OperatorRuntime(asOperator, pods,
                new RagSearchReconciler.Settings(Duration.ofMillis(500), Duration.ofSeconds(30), PodLayout.ADMIN_PORT), Set.of(),
                new LeaderElection(LeaderElection.DEFAULT_LEASE, ops, "replica-a", Duration.ofSeconds(15),
                        Duration.ofSeconds(10), Duration.ofSeconds(2), false),
                OperatorRuntime.Apply.SERVER_SIDE);
        operator.start();
    }

    @AfterAll
    static void stop() {
        if (operator != null) {
            operator.close();
        }
        if (pods != null) {
            pods.close();
        }
        if (asOperator != null) {
            asOperator.close();
        }
        if (admin != null) {
            admin.close();
        }
    }

    @Test
    void theImpersonatedOperatorIsBoundByTheChartsRbac() {
        // the chart grants no cluster-wide secret listing: the API server must refuse it for this identity
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.fabric8.kubernetes.client.KubernetesClientException.class,
                () -> asOperator.secrets().inAnyNamespace().list());
        assertEquals(403, e.getCode(), e.getMessage());
        assertTrue(e.getMessage().contains("system:serviceaccount:" + ops + ":" + SERVICE_ACCOUNT), e.getMessage());
    }

    @Test
    void aRagSearchBecomesADeploymentReplicaSetAndPodsAndGarbageCollectionRemovesThem() {
        RagSearch r = MockCluster.ragSearch(admin, apps, "handbook", "1500Mi", "2");
        admin.resource(r).create();

        Lease lease = await().atMost(Duration.ofSeconds(60)).until(
                () -> admin.leases().inNamespace(ops).withName(LeaderElection.DEFAULT_LEASE).get(),
                l -> l != null && "replica-a".equals(l.getSpec().getHolderIdentity()));
        assertNotNull(lease.getSpec().getRenewTime());

        Deployment d = await().atMost(Duration.ofSeconds(90)).until(() -> MockCluster.deployment(admin, apps, "handbook"),
                x -> x != null);
        assertTrue(ownedBy(d.getMetadata().getOwnerReferences(), "RagSearch", "handbook"), "owned by the RagSearch");
        assertTrue(d.getMetadata().getManagedFields().stream().anyMatch(f -> "Apply".equals(f.getOperation())),
                "written with server-side apply: " + d.getMetadata().getManagedFields());

        ReplicaSet rs = await().atMost(Duration.ofSeconds(90)).until(
                () -> admin.apps().replicaSets().inNamespace(apps).list().getItems().stream()
                        .filter(x -> ownedBy(x.getMetadata().getOwnerReferences(), "Deployment", "handbook")).findFirst().orElse(null),
                x -> x != null);
        int replicas = d.getSpec().getReplicas();
        List<Pod> made = await().atMost(Duration.ofSeconds(90)).until(
                () -> admin.pods().inNamespace(apps).list().getItems().stream()
                        .filter(p -> ownedBy(p.getMetadata().getOwnerReferences(), "ReplicaSet", rs.getMetadata().getName())).toList(),
                l -> l.size() == replicas);
        assertEquals("Pending", made.get(0).getStatus().getPhase(), "no kubelet yet");

        RagSearch status = await().atMost(Duration.ofSeconds(60)).until(() -> MockCluster.get(admin, apps, "handbook"),
                x -> x.getStatus() != null && x.getStatus().conditions != null && !x.getStatus().conditions.isEmpty());
        assertNotNull(status.getStatus().conditions);

        // the leader keeps its Lease past the renew deadline: renewals (PATCHes) pass the chart's Role
        Lease renewed = await().atMost(Duration.ofSeconds(60)).until(
                () -> admin.leases().inNamespace(ops).withName(LeaderElection.DEFAULT_LEASE).get(),
                l -> "replica-a".equals(l.getSpec().getHolderIdentity()) && l.getSpec().getRenewTime()
                        .isAfter(l.getSpec().getAcquireTime().plusSeconds(15)));
        assertEquals(lease.getSpec().getAcquireTime(), renewed.getSpec().getAcquireTime(), "never lost and re-acquired");

        admin.resource(r).delete();
        await().atMost(Duration.ofSeconds(120)).until(() -> MockCluster.deployment(admin, apps, "handbook") == null
                && admin.apps().replicaSets().inNamespace(apps).list().getItems().isEmpty()
                && admin.pods().inNamespace(apps).list().getItems().isEmpty());
    }

    /** The API server is left with exactly what the operator now wants: a node-selector entry the spec dropped goes. */
    @Test
    void anEntryTheSpecNoLongerHasLeavesTheDeployment() {
        RagSearch r = MockCluster.ragSearch(admin, apps, "placed", "1500Mi", "2");
        r.getSpec().pod = new io.ragsearch.operator.model.PodSettings();
        r.getSpec().pod.nodeSelector = new java.util.LinkedHashMap<>(java.util.Map.of("disk", "ssd", "zone", "a"));
        admin.resource(r).create();
        await().atMost(Duration.ofSeconds(90)).until(() -> MockCluster.deployment(admin, apps, "placed"),
                d -> d != null && java.util.Map.of("disk", "ssd", "zone", "a").equals(d.getSpec().getTemplate().getSpec().getNodeSelector()));
        admin.resources(RagSearch.class).inNamespace(apps).withName("placed").edit(x -> {
            x.getSpec().pod.nodeSelector = new java.util.LinkedHashMap<>(java.util.Map.of("disk", "ssd"));
            return x;
        });
        await().atMost(Duration.ofSeconds(90)).until(() -> MockCluster.deployment(admin, apps, "placed"),
                d -> java.util.Map.of("disk", "ssd").equals(d.getSpec().getTemplate().getSpec().getNodeSelector()));
        admin.resources(RagSearch.class).inNamespace(apps).withName("placed").delete();
    }

    /**
     * Helm 4 installs with server-side apply: the chart's Deployment must pass it on a real server,
     * and the duplicate env name it once had is what that server refuses (the mock never did).
     */
    @Test
    void theChartsDeploymentPassesServerSideApplyAndADuplicateEnvNameDoesNot() {
        String ns = plane.namespace("chart");
        Deployment d = HelmObjects.parse(new Helm(CHART).template().withName(RELEASE).withNamespace(ns).call()).stream()
                .filter(Deployment.class::isInstance).map(Deployment.class::cast).findFirst().orElseThrow();
        d.getSpec().setReplicas(0);
        Deployment applied = admin.resource(d).fieldManager("helm").serverSideApply();
        assertNotNull(applied.getMetadata().getUid());

        d.getMetadata().setName("twice");
        var env = d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
        env.add(new io.fabric8.kubernetes.api.model.EnvVarBuilder(env.stream()
                .filter(e -> e.getName().equals("POD_NAMESPACE")).findFirst().orElseThrow()).build());
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.fabric8.kubernetes.client.KubernetesClientException.class,
                () -> admin.resource(d).fieldManager("helm").serverSideApply());
        assertTrue(e.getMessage().contains("duplicate entries for key [name=\"POD_NAMESPACE\"]"), e.getMessage());
    }

    static boolean ownedBy(List<OwnerReference> refs, String kind, String name) {
        return refs != null && refs.stream().anyMatch(o -> kind.equals(o.getKind()) && name.equals(o.getName())
                && Boolean.TRUE.equals(o.getController()));
    }

    /** The chart's rendered objects. */
    static final class HelmObjects {
        static List<HasMetadata> parse(String yaml) {
            return Arrays.stream(yaml.split("(?m)^---\\s*$")).map(String::strip).filter(s -> s.contains("kind:"))
                    .map(s -> (HasMetadata) Serialization.unmarshal(s)).toList();
        }
    }
}
