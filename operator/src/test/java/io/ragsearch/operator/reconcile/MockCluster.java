package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.Models;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.ProjectSource;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.model.Rerank;
import io.ragsearch.operator.model.Resources;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Shared steps of the mock-server tests: the CRD, sample RagSearches, and pods a kubelet would have made. */
public final class MockCluster {
    static final String CRD = "/META-INF/fabric8/ragsearches.ragsearch.io-v1.yml";

    private MockCluster() {
    }

    /** The CRD installed, the operator started against the mock, pods' calibrations read from {@code pods}. */
    static OperatorRuntime startOperator(KubernetesClient client, io.ragsearch.operator.podadmin.PodAdminClient pods)
            throws IOException {
        return startOperator(client, pods, io.ragsearch.operator.metrics.ReconcileTraces.OFF);
    }

    static OperatorRuntime startOperator(KubernetesClient client, io.ragsearch.operator.podadmin.PodAdminClient pods,
                                         io.ragsearch.operator.metrics.ReconcileTraces traces) throws IOException {
        quietMockServer();
        installCrd(client);
        OperatorRuntime operator = new OperatorRuntime(client, pods, new RagSearchReconciler.Settings(
                java.time.Duration.ofMillis(500), java.time.Duration.ofSeconds(30), PodLayout.ADMIN_PORT), java.util.Set.of(), null,
                OperatorRuntime.Apply.PLAIN, traces);
        operator.start();
        return operator;
    }

    public static Deployment deployment(KubernetesClient client, String ns, String name) {
        return client.apps().deployments().inNamespace(ns).withName(name).get();
    }

    public static RagSearch get(KubernetesClient client, String ns, String name) {
        return client.resources(RagSearch.class).inNamespace(ns).withName(name).get();
    }

    public static void quietMockServer() {
        Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
        Logger.getLogger("okhttp3.mockwebserver").setLevel(Level.WARNING);
    }

    /** From the class path (the operator's classes or jar), so operator-sim's tests install the same CRD. */
    public static void installCrd(KubernetesClient client) throws IOException {
        try (InputStream in = MockCluster.class.getResourceAsStream(CRD)) {
            if (in == null) {
                throw new IOException("the generated CRD is not on the class path: " + CRD);
            }
            CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
    }

    /** A RagSearch with the stand-in reranker and one ConfigMap project (the ConfigMap is created too). */
    public static RagSearch ragSearch(KubernetesClient client, String namespace, String name, String memory, String cpu) {
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder()
                .withNewMetadata().withName(name + "-docs").withNamespace(namespace).endMetadata()
                .addToData("handbook.md", "# Handbook\n\n##### 제1조 (목적)\n이 규정은 휴가를 정한다.\n")
                .build()).createOr(existing -> existing.update());
        return ragSearch(namespace, name, memory, cpu);
    }

    /** The same RagSearch alone, for tests without a cluster (its ConfigMap is not made). */
    public static RagSearch ragSearch(String namespace, String name, String memory, String cpu) {
        RagSearch r = new RagSearch();
        r.getMetadata().setName(name);
        r.getMetadata().setNamespace(namespace);
        RagSearchSpec spec = new RagSearchSpec();
        spec.image = "ragsearch/server:test";
        spec.resources = new Resources();
        spec.resources.memory = memory;
        spec.resources.cpu = cpu;
        spec.models = new Models();
        spec.models.reranker = new ModelSource();
        spec.models.reranker.builtin = "minilm-pair";
        Project p = new Project();
        p.name = "handbook";
        p.description = "company handbook";
        p.source = new ProjectSource();
        p.source.configMap = name + "-docs";
        spec.projects = new java.util.ArrayList<>(List.of(p));
        r.setSpec(spec);
        return r;
    }

    static void concurrency(RagSearch r, Object value, Boolean force) {
        r.getSpec().rerank = r.getSpec().rerank == null ? new Rerank() : r.getSpec().rerank;
        r.getSpec().rerank.concurrency = value instanceof Integer i ? new IntOrString(i) : new IntOrString((String) value);
        r.getSpec().rerank.force = force;
    }

    /** What a kubelet reports for a started pod of the Deployment's current template. */
    static Pod readyPod(KubernetesClient client, Deployment d, String podName, String ip) {
        return runningPod(client, d, podName, ip, true);
    }

    /** A pod of the Deployment's current template that runs but is not ready (started, still embedding, say). */
    static Pod notReadyPod(KubernetesClient client, Deployment d, String podName, String ip) {
        return runningPod(client, d, podName, ip, false);
    }

    private static Pod runningPod(KubernetesClient client, Deployment d, String podName, String ip, boolean ready) {
        return client.pods().inNamespace(d.getMetadata().getNamespace()).resource(pod(d, podName, ip, ready)).create();
    }

    /** A running pod of the Deployment's current template as a kubelet reports it, not created anywhere. */
    static Pod pod(Deployment d, String podName, String ip, boolean ready) {
        Map<String, String> labels = d.getSpec().getTemplate().getMetadata().getLabels();
        return new PodBuilder()
                .withNewMetadata().withName(podName).withNamespace(d.getMetadata().getNamespace()).withLabels(labels).endMetadata()
                .withSpec(d.getSpec().getTemplate().getSpec())
                .withNewStatus().withPhase("Running").withPodIP(ip)
                .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition()
                .endStatus()
                .build();
    }

    public static String env(Deployment d, String name) {
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals(name)).findFirst().map(e -> e.getValue()).orElse(null);
    }

    public static String configHash(Deployment d) {
        return d.getSpec().getTemplate().getMetadata().getAnnotations().get(Labels.CONFIG_HASH);
    }

    static List<Event> events(KubernetesClient client, String namespace, String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason())).toList();
    }
}
