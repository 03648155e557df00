package io.ragsearch.sim.endtoend;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.model.PodSettings;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.reconcile.Conditions;
import io.ragsearch.operator.reconcile.LeaderElection;
import io.ragsearch.sim.cluster.HelmCli;
import io.ragsearch.sim.cluster.OciRegistry;
import io.ragsearch.sim.cluster.OperatorProgress;
import io.ragsearch.sim.cluster.RealClusterExtension;
import io.ragsearch.sim.cluster.SearchTraffic;
import io.ragsearch.sim.cluster.ServerJar;
import io.ragsearch.sim.cluster.TestCluster;
import io.ragsearch.sim.node.EndpointReadiness;
import io.ragsearch.sim.plane.ControlPlane;
import io.ragsearch.sim.plane.TestplaneBinary;
import io.ragsearch.sim.playground.DocsDirectory;
import io.ragsearch.sim.playground.ReadyEndpoints;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import static io.ragsearch.sim.cluster.Figures.since;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `helm upgrade` from the previous release to this one on the real control plane, as a platform
 * does it: chart 0.1.0 with the operator of that release (both from git at the commit where the
 * chart was 0.1.0, built once and cached by scripts/build/previous-release.sh), then this chart
 * with this operator. Both charts are packaged (`helm package`), pushed (`helm push`) to a real
 * OCI registry on loopback and installed from `oci://`. The previous chart had the CRD in crds/,
 * which Helm never upgrades; this one has it as a kept template (docs/operator.md, "Upgrading the
 * chart"). A RagSearch made under the previous release serves searches through the whole upgrade.
 *
 * <p>Our node runs the previous operator's pods from the previous jar (their image carries a tag
 * of its own, mapped to that jar) and this chart's from ragsearch-operator.jar.
 */
class HelmUpgradeIT {
    static final String PREVIOUS_VERSION = "0.1.0";
    static final String OPERATOR_IMAGE = "ragsearch/operator";
    /** The previous operator's image tag here: both charts default to the same appVersion, one node must tell them apart. */
    static final String PREVIOUS_TAG = "0.1.0-previous";
    static final Path CHART = Path.of("../helm/ragsearch-operator");
    static final Path EXAMPLE = Path.of("../examples/ragsearch.yaml");
    static final String CRD = "ragsearches.ragsearch.io";
    static final String RELEASE = "up";
    static final String FULLNAME = RELEASE + "-ragsearch-operator";
    static final String NAME = "handbook";
    /**
     * One operator pod per release: the roll from one version to the other is the same with two
     * (a new pod, then the old one gone and its Lease taken), and each JVM fewer is seconds of the
     * suite's two cores; a standby taking over is RealClusterEndToEndIT's.
     */
    static final int OPERATOR_REPLICAS = 1;

    /** Our node runs each release's operator pods from that release's jar, the RagSearch's pods from the server's. */
    @RegisterExtension
    static final RealClusterExtension CLUSTER = RealClusterExtension.withNode(s -> s.withProgram(OPERATOR_IMAGE, ServerJar.operator())
            .withProgram(OPERATOR_IMAGE + ":" + PREVIOUS_TAG, previousJar()));

    /** The previous release's operator jar (built once from git by scripts/build/previous-release.sh, then cached). */
    static Path previousJar() {
        return TestplaneBinary.givenOrBuilt("RAGSEARCH_PREVIOUS_OPERATOR_JAR", "scripts/build/previous-release.sh");
    }

    @Test
    void upgradingFromThePreviousReleaseUpgradesTheCrdAndTheOperatorAndKeepsServing(TestCluster cluster, @TempDir Path dir) throws Exception {
        long start = System.nanoTime();
        Path previousChart = previousJar().resolveSibling("helm").resolve("ragsearch-operator");
        assertEquals(PREVIOUS_VERSION, HelmCli.chartField(Files.readString(previousChart.resolve("Chart.yaml")), "version"));
        assertTrue(Files.exists(previousChart.resolve("crds/" + CRD + "-v1.yml")), "the previous chart had the CRD in crds/");
        String currentVersion = HelmCli.chartField(Files.readString(CHART.resolve("Chart.yaml")), "version");
        assertFalse(PREVIOUS_VERSION.equals(currentVersion), "this chart's version is bumped past the previous one");

        ControlPlane plane = cluster.plane();
        KubernetesClient admin = cluster.admin();
        // The releases' namespace; the RagSearch's is the test's own (deleted after it, its pods with it).
        String ops = plane.namespace("upgrade-ops");
        String ns = cluster.namespace();
        HelmCli helm = HelmCli.against(plane);
        SearchTraffic traffic = cluster.traffic(NAME);
        try (OciRegistry registry = OciRegistry.start()) {
            OperatorProgress operator = OperatorProgress.of(admin, ops, FULLNAME);

            // both charts packaged and pushed; everything below is installed from oci://
            long t = System.nanoTime();
            Path previous = packaged(helm, previousChart, dir.resolve("previous"));
            Path current = packaged(helm, CHART, dir.resolve("current"));
            String repo = "oci://" + registry.address() + "/charts";
            for (Path tgz : List.of(previous, current)) {
                helm.run("push", tgz.toString(), repo, "--plain-http");
            }
            double pushSeconds = since(t);
            String tags = registry.tags("charts/ragsearch-operator");
            assertTrue(tags.contains("\"" + PREVIOUS_VERSION + "\"") && tags.contains("\"" + currentVersion + "\""),
                    "both versions in the registry: " + tags + "\n" + registry.log());
            String chart = repo + "/ragsearch-operator";
            Path pulled = Files.createDirectories(dir.resolve("pulled"));
            helm.run("pull", chart, "--version", currentVersion, "--plain-http", "--destination", pulled.toString());
            assertEquals(sha256(current), sha256(pulled.resolve(current.getFileName())), "the registry gives back the archive pushed");

            // the previous chart installs its crds/ only where the CRD is absent: start from none
            removeCrd(admin);
            t = System.nanoTime();
            helm.run("install", RELEASE, chart, "--version", PREVIOUS_VERSION, "--plain-http", "--namespace", ops,
                    "--set", "image.tag=" + PREVIOUS_TAG, "--set", "replicas=" + OPERATOR_REPLICAS);
            CustomResourceDefinition old = admin.apiextensions().v1().customResourceDefinitions().withName(CRD)
                    .waitUntilCondition(ControlPlane::established, 60, TimeUnit.SECONDS);
            assertNull(podProperties(old).get("shutdownSeconds"), "the previous schema has no shutdownSeconds");
            double installSeconds = since(t);

            // the previous CRD prunes a field added since, silently: what issue 32 found
            assertNull(dryRunShutdownSeconds(admin, ns), "pruned by the previous schema");

            // a RagSearch made under the previous release (applied at once: the operator takes it up when it leads)
            admin.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("handbook-docs")
                    .withNamespace(ns).endMetadata().withData(DocsDirectory.data(Path.of("../examples/corpus/en"))).build()).create();
            admin.resource(example(ns, NAME)).create();
            Lease firstLease = awaitOperator(admin, ops, PREVIOUS_TAG, null);
            double previousOperatorSeconds = since(t);
            operator.await("the previous operator makes the RagSearch Ready with one pod serving", Duration.ofMinutes(8),
                    () -> get(admin, ns), x -> ready(x) && ReadyEndpoints.of(admin, ns, NAME).size() == 1 && serverPods(admin, ns).size() == 1,
                    () -> generations(admin, ns));
            double readySeconds = since(t);
            String servingPod = serverPods(admin, ns).get(0).getMetadata().getUid();
            String servingHash = serverPods(admin, ns).get(0).getMetadata().getLabels().get(Labels.CONFIG_HASH);
            traffic.keepSearching("handbook", "how many days of annual leave do I get");
            traffic.awaitServed(3);
            int servedBefore = traffic.served.get();

            // the one-time move of the CRD from crds/ to a template: Helm refuses to adopt an object it did not make
            HelmCli.Result refused = helm.tryRun("upgrade", RELEASE, chart, "--version", currentVersion, "--plain-http", "--namespace", ops,
                    "--reset-values");
            assertFalse(refused.ok(), refused.out());
            assertTrue(refused.err().contains("invalid ownership metadata") && refused.err().contains(CRD), refused.err());

            // --reset-values: without values Helm would reuse the release's (the previous image tag among them)
            t = System.nanoTime();
            String upgraded = helm.run("upgrade", RELEASE, chart, "--version", currentVersion, "--plain-http", "--namespace", ops,
                    "--reset-values", "--take-ownership", "--set", "replicas=" + OPERATOR_REPLICAS);
            double upgradeSeconds = since(t);
            assertTrue(upgraded.contains("STATUS: deployed"), upgraded);

            // the API server now serves the new schema, owned by the release and kept on uninstall
            CustomResourceDefinition now = admin.apiextensions().v1().customResourceDefinitions().withName(CRD)
                    .waitUntilCondition(c -> ControlPlane.established(c) && podProperties(c).containsKey("shutdownSeconds"), 60, TimeUnit.SECONDS);
            assertEquals(old.getMetadata().getUid(), now.getMetadata().getUid(), "the same CRD, upgraded in place");
            assertTrue(specProperties(now).containsKey("autoscaling") && !specProperties(old).containsKey("autoscaling"),
                    "spec.autoscaling, new since 0.1.0, served");
            assertEquals("keep", now.getMetadata().getAnnotations().get("helm.sh/resource-policy"));
            assertEquals(RELEASE, now.getMetadata().getAnnotations().get("meta.helm.sh/release-name"));
            assertEquals(50, dryRunShutdownSeconds(admin, ns), "kept by the upgraded schema");

            // the operator rolls to this version (this chart's image, this jar) and a new pod leads
            Lease lease = awaitOperator(admin, ops, currentVersionTag(), firstLease);
            double operatorRollSeconds = since(t);
            // ... and the new operator reconciles the RagSearch made by the previous one, which is Ready
            operator.await("the upgraded operator reconciles the RagSearch, which is Ready", Duration.ofMinutes(3),
                    () -> operator.sample().reconciles().values().stream().mapToLong(Long::longValue).sum(),
                    n -> n > 0 && ready(get(admin, ns)), () -> generations(admin, ns));
            double reconciledSeconds = since(t);
            // this operator's configuration has fields the previous one's lacks (retune, resizePolicy):
            // the server pods roll once, to this operator's template, and serve throughout
            Pod serving = operator.await("the RagSearch's pods on this operator's template, one Ready", Duration.ofMinutes(3),
                    Duration.ofMinutes(6), () -> rolledPod(admin, ns), Objects::nonNull, () -> generations(admin, ns));
            double rolledSeconds = since(t);
            traffic.awaitServed(3);
            traffic.stopSearching();
            int servedDuring = traffic.served.get() - servedBefore;
            boolean replaced = !servingPod.equals(serving.getMetadata().getUid());
            System.out.printf("HelmUpgradeIT: searches from just before helm upgrade until the server pods ran this operator's template "
                            + "(pod replaced: %s, config hash %s -> %s): %d served, %d failed %s%n", replaced, servingHash,
                    serving.getMetadata().getLabels().get(Labels.CONFIG_HASH), servedDuring, traffic.failed.get(),
                    traffic.failures.isEmpty() ? "" : traffic.failures.subList(0, Math.min(3, traffic.failures.size())));
            assertEquals(0, traffic.failed.get(), String.valueOf(traffic.failures));
            assertEquals(!servingHash.equals(serving.getMetadata().getLabels().get(Labels.CONFIG_HASH)), replaced,
                    "a pod is replaced exactly when its template changed");
            assertNotNull(lease.getSpec().getHolderIdentity());

            // uninstall: the release goes, the CRD and the RagSearch stay
            t = System.nanoTime();
            helm.run("uninstall", RELEASE, "--namespace", ops, "--wait");
            double uninstallSeconds = since(t);
            assertNotNull(admin.apiextensions().v1().customResourceDefinitions().withName(CRD).get(), "kept: helm.sh/resource-policy");
            assertNotNull(get(admin, ns), "the RagSearch outlives the operator's release");
            admin.resource(get(admin, ns)).delete();
            System.out.printf("HelmUpgradeIT: push of both charts %.1f s; install of %s until its CRD is established %.1f s, its operator "
                            + "leading %.1f s, the RagSearch Ready %.1f s after the install; helm upgrade %.1f s, this operator rolled and leading "
                            + "%.1f s, its reconciles counted with the RagSearch Ready %.1f s and the server pod on its template %.1f s after it; uninstall %.1f s; "
                    + "the class %.1f s%n",
                    pushSeconds, PREVIOUS_VERSION, installSeconds, previousOperatorSeconds, readySeconds, upgradeSeconds,
                    operatorRollSeconds, reconciledSeconds, rolledSeconds, uninstallSeconds, since(start));
        }
    }

    static Path packaged(HelmCli helm, Path chart, Path destination) throws IOException {
        Files.createDirectories(destination);
        helm.run("package", chart.toString(), "--destination", destination.toString());
        try (var files = Files.list(destination)) {
            return files.filter(f -> f.toString().endsWith(".tgz")).findFirst().orElseThrow();
        }
    }

    /** The image tag this chart's operator runs: its appVersion (values.yaml leaves the tag empty). */
    static String currentVersionTag() throws IOException {
        return HelmCli.chartField(Files.readString(CHART.resolve("Chart.yaml")), "appVersion");
    }

    /**
     * The operator's replicas all of image tag {@code tag} and ready, the Deployment rolled out, and
     * one of them holding the Lease; after an upgrade, a holder other than {@code before}'s.
     */
    static Lease awaitOperator(KubernetesClient admin, String ops, String tag, Lease before) {
        String image = OPERATOR_IMAGE + ":" + tag;
        return await(OPERATOR_REPLICAS + " operator pod(s) of " + image + " ready, one leading" + (before == null ? "" : " (not " + before.getSpec().getHolderIdentity() + ")"))
                .atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    Deployment d = admin.apps().deployments().inNamespace(ops).withName(FULLNAME).get();
                    if (d == null) {
                        return null;
                    }
                    List<Pod> pods = admin.pods().inNamespace(ops).withLabels(d.getSpec().getSelector().getMatchLabels()).list().getItems();
                    Lease lease = admin.leases().inNamespace(ops).withName(LeaderElection.DEFAULT_LEASE).get();
                    boolean rolled = d.getStatus() != null && Objects.equals(d.getStatus().getObservedGeneration(), d.getMetadata().getGeneration())
                            && Objects.equals(d.getStatus().getUpdatedReplicas(), OPERATOR_REPLICAS);
                    boolean ready = pods.size() == OPERATOR_REPLICAS && pods.stream().allMatch(p -> EndpointReadiness.routable(p)
                            && image.equals(p.getSpec().getContainers().get(0).getImage()));
                    boolean led = lease != null && pods.stream().anyMatch(p -> p.getMetadata().getName().equals(lease.getSpec().getHolderIdentity()))
                            && (before == null || !lease.getSpec().getHolderIdentity().equals(before.getSpec().getHolderIdentity()));
                    return rolled && ready && led ? lease : null;
                }, Objects::nonNull);
    }

    /** What the API server keeps of spec.pod.shutdownSeconds = 50 in a RagSearch it is asked to create (dry run). */
    static Integer dryRunShutdownSeconds(KubernetesClient admin, String ns) throws IOException {
        RagSearch probe = example(ns, "pruned-probe");
        probe.getSpec().pod = new PodSettings();
        probe.getSpec().pod.shutdownSeconds = 50;
        RagSearch dry = admin.resource(probe).dryRun().create();
        return dry.getSpec().pod == null ? null : dry.getSpec().pod.shutdownSeconds;
    }

    /** The example with one replica (and so without its disruption budget, which one replica cannot have). */
    static RagSearch example(String ns, String name) throws IOException {
        RagSearch r = RagSearchFile.parse(EXAMPLE.toString(), Files.readString(EXAMPLE));
        r.getMetadata().setNamespace(ns);
        r.getMetadata().setName(name);
        r.getSpec().replicas = 1;
        r.getSpec().podDisruptionBudget = null;
        // A fixed rerank concurrency: the previous operator then writes the pods' setting once,
        // without the roll to the measured value after the first pod's calibration (a second pod
        // start, a minute on a busy machine, that this test does not need).
        r.getSpec().rerank.concurrency = new io.fabric8.kubernetes.api.model.IntOrString(2);
        r.getSpec().rerank.force = true;
        return r;
    }

    static RagSearch get(KubernetesClient admin, String ns) {
        return admin.resources(RagSearch.class).inNamespace(ns).withName(NAME).get();
    }

    static boolean ready(RagSearch x) {
        return x != null && x.getStatus() != null && Conditions.isTrue(x.getStatus().conditions, Conditions.READY);
    }

    /** The RagSearch's generation and the one its status says the operator saw, for a timeout's message. */
    static String generations(KubernetesClient admin, String ns) {
        RagSearch x = get(admin, ns);
        return x == null ? "no RagSearch " + ns + "/" + NAME : "RagSearch " + ns + "/" + NAME + " generation " + x.getMetadata().getGeneration()
                + ", status.observedGeneration " + (x.getStatus() == null ? "(no status)" : x.getStatus().observedGeneration);
    }

    /**
     * The RagSearch's one pod once its Deployment has rolled out (observed, every replica updated and
     * available, no other pod left) and the RagSearch is Ready; null until then.
     */
    static Pod rolledPod(KubernetesClient admin, String ns) {
        Deployment d = admin.apps().deployments().inNamespace(ns).withName(NAME).get();
        List<Pod> pods = admin.pods().inNamespace(ns).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems();
        if (d == null || d.getStatus() == null || pods.size() != 1 || !ready(get(admin, ns))) {
            return null;
        }
        String hash = d.getSpec().getTemplate().getMetadata().getAnnotations().get(Labels.CONFIG_HASH);
        boolean rolled = Objects.equals(d.getStatus().getObservedGeneration(), d.getMetadata().getGeneration())
                && Objects.equals(d.getStatus().getUpdatedReplicas(), 1) && Objects.equals(d.getStatus().getAvailableReplicas(), 1)
                && Objects.equals(d.getStatus().getReplicas(), 1);
        Pod pod = pods.get(0);
        return rolled && EndpointReadiness.routable(pod) && hash != null && hash.equals(pod.getMetadata().getLabels().get(Labels.CONFIG_HASH)) ? pod : null;
    }

    static List<Pod> serverPods(KubernetesClient admin, String ns) {
        return admin.pods().inNamespace(ns).withLabel(Labels.LABEL_INSTANCE, NAME).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    static Map<String, JSONSchemaProps> specProperties(CustomResourceDefinition c) {
        return c.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties();
    }

    static Map<String, JSONSchemaProps> podProperties(CustomResourceDefinition c) {
        return specProperties(c).get("pod").getProperties();
    }

    static void removeCrd(KubernetesClient admin) {
        var crds = admin.apiextensions().v1().customResourceDefinitions().withName(CRD);
        if (crds.get() != null) {
            crds.delete();
            crds.waitUntilCondition(Objects::isNull, 120, TimeUnit.SECONDS);
        }
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

}
