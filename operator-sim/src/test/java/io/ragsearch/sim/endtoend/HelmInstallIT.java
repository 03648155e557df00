package io.ragsearch.sim.endtoend;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.sim.cluster.HelmCli;
import io.ragsearch.sim.plane.ControlPlane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.ragsearch.sim.cluster.Figures.since;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chart installed, upgraded and uninstalled by a real Helm 4 (built from its Go module) on the
 * real control plane: Helm 4 applies server-side, so the API server judges every object as a
 * cluster would (the duplicate env name it once refused is the reason this test exists). The
 * assertions are on the objects the API server holds, and on what its RBAC authorizer answers for
 * the chart's ServiceAccount.
 */
class HelmInstallIT {
    static final Path CHART = Path.of("../helm/ragsearch-operator");
    static final Path EXAMPLE = Path.of("../examples/ragsearch.yaml");
    static final String CRD = "ragsearches.ragsearch.io";
    static final String RELEASE = "helmit";
    static final String FULLNAME = RELEASE + "-ragsearch-operator";

    static ControlPlane plane;
    static KubernetesClient admin;
    static HelmCli helm;

    @BeforeAll
    static void start() {
        plane = ControlPlane.get();
        admin = plane.adminClient();
        helm = HelmCli.against(plane);
    }

    @AfterAll
    static void close() {
        if (admin != null) {
            admin.close();
        }
    }

    @Test
    void theBinaryIsThePinnedHelm4() {
        String version = helm.run("version", "--template", "{{.Version}}").strip();
        String pinned = pinnedVersion();
        assertEquals(pinned, version, "helm version");
        assertTrue(version.startsWith("v4."), version);
    }

    @Test
    void installUpgradeAndUninstallOnTheRealApiServer() throws Exception {
        String ns = plane.namespace("helm");
        String apps = plane.namespace("helm-apps");
        // Another test class of this JVM may have applied the CRD without Helm, and Helm refuses to
        // install over an object it does not own: it goes first, and this install creates it
        removeCrd();

        long t0 = System.nanoTime();
        String installed = helm.run("install", RELEASE, CHART.toString(), "--namespace", ns, "--server-side=true");
        double installSeconds = since(t0);
        assertTrue(installed.contains("STATUS: deployed"), installed);

        // the CRD: accepted and served by the real API server
        CustomResourceDefinition crd = admin.apiextensions().v1().customResourceDefinitions().withName(CRD)
                .waitUntilCondition(c -> c != null && condition(c, "Established"), 60, TimeUnit.SECONDS);
        assertTrue(condition(crd, "NamesAccepted"), "names accepted");
        assertEquals(List.of("v1alpha1"), crd.getSpec().getVersions().stream().map(v -> v.getName()).toList());
        assertEquals(RELEASE, crd.getMetadata().getAnnotations().get("meta.helm.sh/release-name"), "a template of the release");
        assertEquals("keep", crd.getMetadata().getAnnotations().get("helm.sh/resource-policy"));

        // the operator's Deployment, written by Helm with server-side apply, taken up by the real controllers
        Deployment d = admin.apps().deployments().inNamespace(ns).withName(FULLNAME).get();
        assertNotNull(d, "Deployment " + FULLNAME);
        assertEquals(2, d.getSpec().getReplicas());
        assertTrue(appliedBy(d.getMetadata().getManagedFields(), "helm"),
                "Helm 4 applied it server-side: " + managers(d.getMetadata().getManagedFields()));
        List<String> envNames = d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream().map(EnvVar::getName).toList();
        assertEquals(envNames.stream().distinct().count(), envNames.size(), "env names once each: " + envNames);
        List<Pod> pods = await().atMost(Duration.ofSeconds(90)).until(() -> operatorPods(ns), l -> l.size() == 2);
        assertTrue(pods.stream().allMatch(p -> FULLNAME.equals(p.getSpec().getServiceAccountName())),
                "the ServiceAccount admission accepted the chart's account");

        // identity and RBAC, as the API server's authorizer answers for the chart's ServiceAccount
        assertNotNull(admin.serviceAccounts().inNamespace(ns).withName(FULLNAME).get(), "ServiceAccount");
        assertNotNull(admin.rbac().clusterRoles().withName(FULLNAME).get(), "ClusterRole");
        assertNotNull(admin.rbac().clusterRoleBindings().withName(FULLNAME).get(), "ClusterRoleBinding");
        assertNotNull(admin.rbac().roles().inNamespace(ns).withName(FULLNAME + "-leader-election").get(), "Lease Role");
        String sa = "system:serviceaccount:" + ns + ":" + FULLNAME;
        assertTrue(allowed(sa, "update", "coordination.k8s.io", "leases", null, ns), "renew its Lease");
        assertFalse(allowed(sa, "update", "coordination.k8s.io", "leases", null, apps), "a Lease elsewhere");
        assertTrue(allowed(sa, "patch", "ragsearch.io", "ragsearches", "status", apps), "status of a RagSearch anywhere");
        assertTrue(allowed(sa, "create", "apps", "deployments", null, apps), "create a Deployment anywhere");
        assertFalse(allowed(sa, "list", "", "secrets", null, apps), "never list Secrets");
        assertEquals(List.of("deployed"), releaseStatuses(ns));

        // upgrade: 3 replicas, watching one namespace (a Role there instead of the ClusterRole)
        t0 = System.nanoTime();
        String upgraded = helm.run("upgrade", RELEASE, CHART.toString(), "--namespace", ns,
                "--set", "replicas=3", "--set", "rbac.scope=namespace", "--set", "rbac.watchNamespaces[0]=" + apps);
        double upgradeSeconds = since(t0);
        assertTrue(upgraded.contains("REVISION: 2"), upgraded);
        Deployment d2 = admin.apps().deployments().inNamespace(ns).withName(FULLNAME).get();
        assertEquals(3, d2.getSpec().getReplicas());
        assertEquals(apps, env(d2, "WATCH_NAMESPACES"));
        assertEquals(d.getMetadata().getUid(), d2.getMetadata().getUid(), "the same Deployment, patched");
        assertNull(admin.rbac().clusterRoles().withName(FULLNAME).get(), "Helm removed the ClusterRole");
        assertNull(admin.rbac().clusterRoleBindings().withName(FULLNAME).get(), "and its binding");
        assertNotNull(admin.rbac().roles().inNamespace(apps).withName(FULLNAME).get(), "Role in the watched namespace");
        assertTrue(allowed(sa, "patch", "ragsearch.io", "ragsearches", "status", apps), "status in the watched namespace");
        assertFalse(allowed(sa, "patch", "ragsearch.io", "ragsearches", "status", ns), "nowhere else");
        await().atMost(Duration.ofSeconds(90)).until(() -> admin.apps().deployments().inNamespace(ns).withName(FULLNAME).get(),
                x -> x.getStatus() != null && x.getStatus().getObservedGeneration() != null
                        && x.getStatus().getObservedGeneration().equals(x.getMetadata().getGeneration()));
        assertEquals(List.of("deployed", "superseded"), releaseStatuses(ns).stream().sorted().toList());

        // uninstall: every object of the release goes, the CRD (and so every RagSearch) stays
        t0 = System.nanoTime();
        helm.run("uninstall", RELEASE, "--namespace", ns, "--wait");
        double uninstallSeconds = since(t0);
        assertNull(admin.apps().deployments().inNamespace(ns).withName(FULLNAME).get(), "Deployment gone");
        assertNull(admin.serviceAccounts().inNamespace(ns).withName(FULLNAME).get(), "ServiceAccount gone");
        assertNull(admin.rbac().roles().inNamespace(apps).withName(FULLNAME).get(), "Role gone");
        assertNull(admin.rbac().roles().inNamespace(ns).withName(FULLNAME + "-leader-election").get(), "Lease Role gone");
        assertEquals(List.of(), releaseStatuses(ns));
        await().atMost(Duration.ofSeconds(90)).until(() -> operatorPods(ns).isEmpty());
        CustomResourceDefinition kept = admin.apiextensions().v1().customResourceDefinitions().withName(CRD).get();
        assertNotNull(kept, "the CRD stays after uninstall");
        assertTrue(condition(kept, "Established"));
        // and still serves: the README's example is accepted by its schema and CEL rules
        GenericKubernetesResource example = Serialization.unmarshal(Files.readString(EXAMPLE), GenericKubernetesResource.class);
        example.getMetadata().setNamespace(apps);
        GenericKubernetesResource created = admin.genericKubernetesResources("ragsearch.io/v1alpha1", "RagSearch")
                .inNamespace(apps).resource(example).create();
        assertNotNull(created.getMetadata().getUid());
        // gone again: an operator another test class starts later in this JVM watches every namespace
        admin.genericKubernetesResources("ragsearch.io/v1alpha1", "RagSearch").inNamespace(apps).resource(created).delete();

        System.out.printf("HelmInstallIT: helm install %.1fs, upgrade %.1fs, uninstall --wait %.1fs%n",
                installSeconds, upgradeSeconds, uninstallSeconds);
    }

    /** What the mock let through: a Role in a namespace that does not exist. The chart's README says so. */
    @Test
    void aNamespaceScopedInstallNeedsItsWatchedNamespacesToExist() {
        String ns = plane.namespace("helm-scoped");
        String missing = "absent-" + ns;
        // a second release of the chart beside the other test's: the CRD is that release's (crd.install=false, as the README says)
        HelmCli.Result r = helm.tryRun("install", "scoped", CHART.toString(), "--namespace", ns, "--set", "crd.install=false",
                "--set", "rbac.scope=namespace", "--set", "rbac.watchNamespaces[0]=" + missing);
        assertFalse(r.ok(), r.out());
        assertTrue(r.err().contains("namespaces \"" + missing + "\" not found"), r.err());
        assertEquals(List.of("failed"), admin.secrets().inNamespace(ns).withLabels(Map.of("owner", "helm", "name", "scoped"))
                .list().getItems().stream().map(x -> x.getMetadata().getLabels().get("status")).toList(), "Helm recorded the failure");
        helm.run("uninstall", "scoped", "--namespace", ns);
    }

    static void removeCrd() {
        var crds = admin.apiextensions().v1().customResourceDefinitions().withName(CRD);
        if (crds.get() != null) {
            crds.delete();
            crds.waitUntilCondition(c -> c == null, 120, TimeUnit.SECONDS);
        }
    }

    static String pinnedVersion() {
        try {
            return Files.readAllLines(Path.of("../tools/helm/go.mod")).stream().map(String::strip)
                    .filter(l -> l.startsWith("helm.sh/helm/v4 ")).map(l -> l.split("\\s+")[1]).findFirst().orElseThrow();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static boolean condition(CustomResourceDefinition c, String type) {
        return c.getStatus() != null && c.getStatus().getConditions() != null && c.getStatus().getConditions().stream()
                .anyMatch(x -> type.equals(x.getType()) && "True".equals(x.getStatus()));
    }

    static boolean appliedBy(List<ManagedFieldsEntry> fields, String manager) {
        return fields.stream().anyMatch(f -> manager.equals(f.getManager()) && "Apply".equals(f.getOperation()));
    }

    static List<String> managers(List<ManagedFieldsEntry> fields) {
        return fields.stream().map(f -> f.getManager() + "/" + f.getOperation()).toList();
    }

    static String env(Deployment d, String name) {
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> name.equals(e.getName())).map(EnvVar::getValue).findFirst().orElse(null);
    }

    static List<Pod> operatorPods(String ns) {
        return admin.pods().inNamespace(ns).withLabel("app.kubernetes.io/instance", RELEASE).list().getItems();
    }

    /** The release's revisions as Helm stores them (Secrets of type helm.sh/release.v1): their status labels. */
    static List<String> releaseStatuses(String ns) {
        return admin.secrets().inNamespace(ns).withLabels(Map.of("owner", "helm", "name", RELEASE)).list().getItems().stream()
                .map(Secret::getMetadata).map(m -> m.getLabels().get("status")).toList();
    }

    /** What the API server's authorizer answers for this user (the ServiceAccount's groups included). */
    static boolean allowed(String user, String verb, String group, String resource, String subresource, String namespace) {
        SubjectAccessReview review = new SubjectAccessReviewBuilder().withNewSpec()
                .withUser(user).withGroups("system:serviceaccounts", "system:serviceaccounts:" + user.split(":")[2], "system:authenticated")
                .withNewResourceAttributes().withVerb(verb).withGroup(group).withResource(resource)
                .withSubresource(subresource).withNamespace(namespace).endResourceAttributes()
                .endSpec().build();
        return admin.authorization().v1().subjectAccessReview().create(review).getStatus().getAllowed();
    }
}
