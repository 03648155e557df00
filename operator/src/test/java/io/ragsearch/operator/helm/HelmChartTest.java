package io.ragsearch.operator.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Renders the chart with Helm's own engine (helm-java bundles it) and checks what it would install. */
class HelmChartTest {
    /** What helm-java renders (the chart without its kubeVersion line: HelmJavaChart says why). */
    static final Path CHART = HelmJavaChart.path();


    static List<HasMetadata> parse(String yaml) {
        return Arrays.stream(yaml.split("(?m)^---\\s*$")).map(String::strip)
                .filter(s -> s.contains("kind:"))
                .map(s -> (HasMetadata) Serialization.unmarshal(s)).toList();
    }

    @Test
    void lintIsClean() {
        LintResult lint = new Helm(HelmJavaChart.CHART).lint().strict().call();
        assertFalse(lint.isFailed(), String.join("\n", lint.getMessages()));
        assertTrue(lint.getMessages().stream().noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]")),
                String.join("\n", lint.getMessages()));
    }

    @Test
    void clusterScopeInstallsAServiceAccountClusterRoleBindingAndAProbedDeployment() {
        List<HasMetadata> objects = parse(new Helm(CHART).template().withName("rs").withNamespace("ops").call());
        assertEquals(List.of("ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "Deployment", "Role", "RoleBinding", "ServiceAccount"),
                objects.stream().map(HasMetadata::getKind).sorted().toList());
        Deployment d = of(objects, Deployment.class);
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("/healthz", c.getLivenessProbe().getHttpGet().getPath());
        assertEquals("/readyz", c.getReadinessProbe().getHttpGet().getPath());
        assertEquals("ragsearch/operator:0.1.0-SNAPSHOT", c.getImage(), "the tag the image build gives it");
        assertEquals(Boolean.TRUE, c.getSecurityContext().getReadOnlyRootFilesystem());
        assertEquals("", env(c, "WATCH_NAMESPACES"), "cluster scope watches every namespace");
        assertEquals("rs-ragsearch-operator", d.getSpec().getTemplate().getSpec().getServiceAccountName());

        List<PolicyRule> rules = of(objects, ClusterRole.class).getRules();
        assertTrue(rules.stream().noneMatch(r -> r.getVerbs().contains("*") || r.getResources().contains("*")), "no wildcards");
        PolicyRule secrets = rules.stream().filter(r -> r.getResources().contains("secrets")).findFirst().orElseThrow();
        assertEquals(List.of("get"), secrets.getVerbs(), "secrets are read by name, never listed");
        assertTrue(rules.stream().anyMatch(r -> r.getResources().contains("ragsearches/status") && r.getVerbs().contains("patch")));
        PolicyRule pods = rules.stream().filter(r -> r.getResources().contains("pods")).findFirst().orElseThrow();
        assertFalse(pods.getVerbs().contains("delete"));
        PolicyRule resize = rules.stream().filter(r -> r.getResources().contains("pods/resize")).findFirst().orElseThrow();
        assertEquals(List.of("patch"), resize.getVerbs(), "pods are resized in place, never edited otherwise");
    }

    @Test
    void namespaceScopeGrantsRolesOnlyWhereItWatches(@TempDir Path dir) throws Exception {
        Path values = dir.resolve("values.yaml");
        Files.writeString(values, "rbac:\n  scope: namespace\n  watchNamespaces: [team-a, team-b]\n");
        List<HasMetadata> objects = parse(new Helm(CHART).template().withName("rs").withNamespace("ops")
                .withValuesFile(values).call());
        List<Role> roles = objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(r -> !r.getMetadata().getName().endsWith("-leader-election")).toList();
        assertEquals(List.of("team-a", "team-b"), roles.stream().map(r -> r.getMetadata().getNamespace()).toList());
        assertTrue(objects.stream().noneMatch(o -> o.getKind().startsWith("Cluster")));
        assertEquals(3, objects.stream().filter(o -> o.getKind().equals("RoleBinding")).count(), "two watched, one Lease");
        Container c = of(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("team-a,team-b", env(c, "WATCH_NAMESPACES"));

        List<HasMetadata> own = parse(new Helm(CHART).template().withName("rs").withNamespace("ops")
                .set("rbac.scope", "namespace").call());
        assertEquals("ops", own.stream().filter(Role.class::isInstance).findFirst().orElseThrow().getMetadata().getNamespace());
    }

    @Test
    void theOperatorKnowsItsNamespaceAndAnOptionalScraper(@TempDir Path dir) throws Exception {
        Container plain = of(parse(new Helm(CHART).template().withName("rs").withNamespace("ops").call()), Deployment.class)
                .getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("metadata.namespace", plain.getEnv().stream().filter(e -> e.getName().equals("POD_NAMESPACE")).findFirst()
                .orElseThrow().getValueFrom().getFieldRef().getFieldPath());
        assertTrue(plain.getEnv().stream().noneMatch(e -> e.getName().startsWith("METRICS_SCRAPE")), "no scraper by default");

        Path values = dir.resolve("values.yaml");
        Files.writeString(values, "metricsScrape:\n  namespace: monitoring\n  podLabels: {app: prometheus, tier: b}\n");
        Container scraped = of(parse(new Helm(CHART).template().withName("rs").withNamespace("ops").withValuesFile(values).call()),
                Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("monitoring", env(scraped, "METRICS_SCRAPE_NAMESPACE"));
        assertEquals("app=prometheus,tier=b", env(scraped, "METRICS_SCRAPE_POD_LABELS"));
    }

    @Test
    void twoReplicasElectALeaderThroughALeaseInTheReleaseNamespace() {
        List<HasMetadata> objects = parse(new Helm(CHART).template().withName("rs").withNamespace("ops").call());
        Deployment d = of(objects, Deployment.class);
        assertEquals(2, d.getSpec().getReplicas());
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("true", env(c, "LEADER_ELECTION"));
        assertEquals("metadata.name", c.getEnv().stream().filter(e -> e.getName().equals("POD_NAME")).findFirst()
                .orElseThrow().getValueFrom().getFieldRef().getFieldPath(), "the replica's identity in the Lease");
        Role lease = objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(r -> r.getMetadata().getName().equals("rs-ragsearch-operator-leader-election")).findFirst().orElseThrow();
        assertEquals("ops", lease.getMetadata().getNamespace());
        assertEquals(List.of("leases"), lease.getRules().get(0).getResources());
        assertEquals(List.of("get", "create", "update", "patch"), lease.getRules().get(0).getVerbs(),
                "renewals are PATCHes (RealOperatorIT: without patch the real server refuses them)");
        assertEquals("kubernetes.io/hostname", d.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution().get(0).getPodAffinityTerm().getTopologyKey(),
                "the replicas prefer different nodes");

        Exception e = assertThrows(Exception.class, () -> new Helm(CHART).template().withName("rs")
                .set("leaderElection.enabled", "false").call());
        assertTrue(e.getMessage().contains("replicas > 1 needs leaderElection.enabled"), e.getMessage());
        List<HasMetadata> single = parse(new Helm(CHART).template().withName("rs").withNamespace("ops")
                .set("leaderElection.enabled", "false").set("replicas", "1").call());
        assertTrue(single.stream().noneMatch(o -> o.getMetadata().getName().endsWith("-leader-election")));
    }

    /**
     * Server-side apply (Helm 4 installs with it) refuses a pod template whose merge keys repeat:
     * env by name, containers and volumes by name, volume mounts by path, ports by port and
     * protocol. Neither {@code helm lint --strict} nor the schema checks notice, so every values
     * variant the chart knows is rendered and checked here.
     */
    @Test
    void noPodTemplateListRepeatsAKeyThatServerSideApplyMergesOn(@TempDir Path dir) throws Exception {
        Path scraped = dir.resolve("scraped.yaml");
        Files.writeString(scraped, "metricsScrape:\n  namespace: monitoring\n  podLabels: {app: prometheus}\n");
        Path namespaced = dir.resolve("namespaced.yaml");
        Files.writeString(namespaced, "rbac:\n  scope: namespace\n  watchNamespaces: [team-a]\n");
        List<String> renders = List.of(
                new Helm(CHART).template().withName("rs").withNamespace("ops").call(),
                new Helm(CHART).template().withName("rs").withNamespace("ops").withValuesFile(scraped).call(),
                new Helm(CHART).template().withName("rs").withNamespace("ops").withValuesFile(namespaced).call(),
                new Helm(CHART).template().withName("rs").withNamespace("ops")
                        .set("leaderElection.enabled", "false").set("replicas", "1").call());
        int checked = 0;
        for (String yaml : renders) {
            for (Deployment d : parse(yaml).stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).toList()) {
                var pod = d.getSpec().getTemplate().getSpec();
                assertUnique("containers", pod.getContainers().stream().map(Container::getName).toList());
                assertUnique("volumes", pod.getVolumes().stream().map(v -> v.getName()).toList());
                for (Container c : pod.getContainers()) {
                    assertUnique(c.getName() + " env", c.getEnv().stream().map(e -> e.getName()).toList());
                    assertUnique(c.getName() + " volumeMounts", c.getVolumeMounts().stream().map(m -> m.getMountPath()).toList());
                    assertUnique(c.getName() + " ports", c.getPorts().stream()
                            .map(p -> p.getContainerPort() + "/" + (p.getProtocol() == null ? "TCP" : p.getProtocol())).toList());
                    checked++;
                }
            }
        }
        assertEquals(renders.size(), checked, "one operator container in every render");
    }

    private static void assertUnique(String what, List<String> keys) {
        List<String> repeated = keys.stream().filter(k -> keys.indexOf(k) != keys.lastIndexOf(k)).distinct().toList();
        assertTrue(repeated.isEmpty(), what + " repeats " + repeated + " (server-side apply refuses duplicate merge keys)");
    }

    @Test
    void valuesOfTheWrongTypeAndUnknownKeysAreRefusedByTheSchema() {
        // values.schema.json: without it each of these rendered with exit 0.
        for (String[] bad : new String[][] {{"replicas", "two", "replicas"}, {"healthPort", "abc", "healthPort"},
                {"replicaz", "3", "replicaz"}, {"image.pullPolicy", "Sometimes", "pullPolicy"},
                {"leaderElection.enabled", "yes", "enabled"}, {"rbac.scoop", "cluster", "scoop"}}) {
            Exception e = assertThrows(Exception.class, () -> new Helm(CHART).template().withName("rs").set(bad[0], bad[1]).call(),
                    bad[0] + "=" + bad[1]);
            assertTrue(e.getMessage().contains("values don't meet the specifications of the schema"), e.getMessage());
            assertTrue(e.getMessage().contains(bad[2]), bad[0] + "=" + bad[1] + ": " + e.getMessage());
        }
        List<HasMetadata> ok = parse(new Helm(CHART).template().withName("rs").withNamespace("ops")
                .set("replicas", "3").set("healthPort", "9090").set("resources.limits.cpu", "1").call());
        assertEquals(3, of(ok, Deployment.class).getSpec().getReplicas());
    }

    @Test
    void aWrongScopeFailsWithAMessage() {
        Exception e = assertThrows(Exception.class, () -> new Helm(CHART).template().withName("rs")
                .set("rbac.scope", "everything").call());
        // The values schema answers first (the template's own check stays for a values file Helm does not validate).
        assertTrue(e.getMessage().contains("rbac.scope must be one of the following: \"cluster\", \"namespace\""), e.getMessage());
    }

    /**
     * The CRD is a template (Helm upgrades it; crds/ it never would), rendered from the generated
     * copy in files/: the same schema as ../crds/, plus the annotation that keeps it on uninstall.
     */
    @Test
    void theChartRendersTheGeneratedCrdWhichHelmUpgradesAndKeepsOnUninstall() throws Exception {
        Path inChart = HelmJavaChart.CHART.resolve("files/ragsearches.ragsearch.io-v1.yml");
        assertEquals(Files.readString(Path.of("../crds/ragsearches.ragsearch.io-v1.yml")), Files.readString(inChart));
        assertFalse(Files.exists(HelmJavaChart.CHART.resolve("crds")), "crds/ would be installed once and never upgraded");

        CustomResourceDefinition generated = Serialization.unmarshal(Files.readString(inChart), CustomResourceDefinition.class);
        CustomResourceDefinition rendered = of(parse(new Helm(CHART).template().withName("rs").withNamespace("ops").call()),
                CustomResourceDefinition.class);
        assertEquals(generated.getSpec(), rendered.getSpec(), "the schema, as generated from the Java model");
        assertEquals(generated.getMetadata().getName(), rendered.getMetadata().getName());
        assertEquals("keep", rendered.getMetadata().getAnnotations().get("helm.sh/resource-policy"));
        assertEquals("rs", rendered.getMetadata().getLabels().get("app.kubernetes.io/instance"));

        List<HasMetadata> without = parse(new Helm(CHART).template().withName("rs").withNamespace("ops").set("crd.install", "false").call());
        assertTrue(without.stream().noneMatch(CustomResourceDefinition.class::isInstance), "crd.install=false: managed outside Helm");
        assertTrue(without.stream().anyMatch(Deployment.class::isInstance));
    }

    /** metrics.serviceMonitor: off by default (the ServiceMonitor CRD may be absent); on, a Service and a ServiceMonitor that meet. */
    @Test
    @SuppressWarnings("unchecked")
    void aServiceMonitorOnlyWhenEnabledSelectingTheOperatorsMetricsService() {
        List<HasMetadata> plain = parse(new Helm(CHART).template().withName("rs").withNamespace("ops").call());
        assertTrue(plain.stream().noneMatch(o -> o.getKind().equals("ServiceMonitor") || o.getKind().equals("Service")), kinds(plain));

        List<HasMetadata> on = parse(new Helm(CHART).template().withName("rs").withNamespace("ops")
                .set("metrics.serviceMonitor.enabled", "true").set("metrics.serviceMonitor.labels.release", "prom")
                .set("healthPort", "9090").call());
        GenericKubernetesResource monitor = on.stream().filter(o -> o.getKind().equals("ServiceMonitor"))
                .map(GenericKubernetesResource.class::cast).findFirst().orElseThrow(() -> new AssertionError(kinds(on)));
        assertEquals("monitoring.coreos.com/v1", monitor.getApiVersion());
        assertEquals("ops", monitor.getMetadata().getNamespace());
        assertEquals("prom", monitor.getMetadata().getLabels().get("release"), "what a Prometheus's serviceMonitorSelector matches");
        Map<String, Object> endpoint = ((List<Map<String, Object>>) monitor.get("spec", "endpoints")).get(0);
        assertEquals("metrics", endpoint.get("port"));
        assertEquals("/metrics", endpoint.get("path"));
        Map<String, String> selector = monitor.get("spec", "selector", "matchLabels");

        Service service = of(on, Service.class);
        assertTrue(service.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()), "the ServiceMonitor selects the Service");
        ServicePort port = service.getSpec().getPorts().get(0);
        assertEquals("metrics", port.getName());
        assertEquals(9090, port.getPort());
        assertEquals("health", port.getTargetPort().getStrVal(), "the operator container's port that serves /metrics");
        Deployment d = of(on, Deployment.class);
        assertTrue(d.getSpec().getTemplate().getMetadata().getLabels().entrySet().containsAll(service.getSpec().getSelector().entrySet()),
                "the Service selects the operator pods");

        Exception e = assertThrows(Exception.class, () -> new Helm(CHART).template().withName("rs")
                .set("metrics.serviceMonitor.interval", "often").call());
        assertTrue(e.getMessage().contains("interval"), e.getMessage());
    }

    private static String kinds(List<HasMetadata> objects) {
        return objects.stream().map(HasMetadata::getKind).toList().toString();
    }

    private static <T> T of(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
    }

    private static String env(Container c, String name) {
        return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow().getValue();
    }
}
