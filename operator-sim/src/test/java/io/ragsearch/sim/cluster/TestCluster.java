package io.ragsearch.sim.cluster;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.podadmin.HttpPodAdminClient;
import io.ragsearch.operator.reconcile.OperatorRuntime;
import io.ragsearch.operator.reconcile.RagSearchReconciler;
import io.ragsearch.sim.node.NodeAgent;
import io.ragsearch.sim.plane.ControlPlane;
import io.ragsearch.sim.playground.DocsDirectory;
import io.ragsearch.sim.playground.ReadyEndpoints;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.awaitility.Awaitility.await;

/**
 * One test's share of the real cluster ({@link RealClusterExtension} hands it over): the shared
 * control plane, an admin client, a namespace of the test's own, the node agent that runs the pods,
 * and what the test starts through it (the operator, a searching client), stopped after the test,
 * before its namespace is deleted.
 */
public final class TestCluster {
    /** The sample corpus the handbook scenarios serve. */
    public static final Path HANDBOOK_CORPUS = Path.of("../examples/corpus/en");
    /**
     * The checks a new version of a handbook project must pass on its candidate pod (docs/verify.md):
     * a search, the document list, an article, two refusals and the tools' schemas.
     */
    public static String handbookChecks(String project) {
        return """
                set: e2e-handbook
                project: %s
                checks:
                  - {id: annual-leave, kind: search, query: "How many days of paid annual leave do I get?",
                     expect: [{document: employee-handbook, article: "Article 10"}], within: 3}
                  - {id: documents, kind: list_documents, names: [employee-handbook, expense-policy, it-security]}
                  - {id: read-overtime, kind: read_article, document: employee-handbook, article: "Article 7", title: Overtime}
                  - {id: missing-project, kind: error, tool: search, arguments: {project: handbook-fr, query: leave},
                     message: unknown project}
                  - {id: missing-document, kind: error, tool: read_article,
                     arguments: {project: %s, document: travel-policy, article: "Article 1"}, message: unknown document}
                  - {id: tool-schemas, kind: schemas, tools: [list_documents, list_projects, read_article, search]}
                """.formatted(project, project);
    }

    /** How long a namespace may take to go: its pods stop (SIGTERM, then the agent's grace) first. */
    private static final Duration NAMESPACE_GONE = Duration.ofMinutes(3);

    private final ControlPlane plane;
    private final KubernetesClient admin;
    private final NodeAgent agent;
    private final Path nodeWorkDir;
    private final String namespace;
    /** What the test started here, stopped last first. */
    private final List<AutoCloseable> started = new ArrayList<>();

    public TestCluster(ControlPlane plane, KubernetesClient admin, NodeAgent agent, Path nodeWorkDir, String namespace) {
        this.plane = plane;
        this.admin = admin;
        this.agent = agent;
        this.nodeWorkDir = nodeWorkDir;
        this.namespace = namespace;
    }

    public ControlPlane plane() {
        return plane;
    }

    /** The admin client (system:masters), shared by the class's tests: do not close it. */
    public KubernetesClient admin() {
        return admin;
    }

    public NodeAgent agent() {
        return agent;
    }

    /** Where the node agent keeps its pods' files and the jar they run (under /tmp). */
    public Path nodeWorkDir() {
        return nodeWorkDir;
    }

    /** This test's namespace, deleted after it. */
    public String namespace() {
        return namespace;
    }

    /**
     * The operator in this JVM, as it runs in a cluster (server-side apply), watching this test's
     * namespace only; it asks the pods' admin endpoints over HTTP. Stopped after the test.
     *
     * @param settledResync how often a settled RagSearch is reconciled again (a test that waits on one shortens it)
     */
    public OperatorRuntime startOperator(Duration settledResync) {
        OperatorRuntime operator = new OperatorRuntime(admin, new HttpPodAdminClient(),
                new RagSearchReconciler.Settings(Duration.ofSeconds(1), settledResync, PodLayout.ADMIN_PORT), Set.of(namespace),
                null, OperatorRuntime.Apply.SERVER_SIDE);
        started.add(operator::close);
        operator.start();
        return operator;
    }

    /** A client that searches through the ready, not terminating pods of {@code instance}, as its Service routes; closed after the test. */
    public SearchTraffic traffic(String instance) {
        SearchTraffic traffic = new SearchTraffic(admin, namespace, instance);
        started.add(traffic);
        return traffic;
    }

    /** A ConfigMap in this namespace. */
    public void configMap(String name, Map<String, String> data) {
        admin.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .withNamespace(namespace).endMetadata().withData(data).build()).create();
    }

    /** The sample handbook's documents as ConfigMap {@code name}. */
    public void handbookDocs(String name) {
        try {
            configMap(name, DocsDirectory.data(HANDBOOK_CORPUS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A RagSearch written as a user would (no namespace: it goes in this test's), created. */
    public RagSearch create(String yaml) {
        RagSearch r = RagSearchFile.parse(namespace, yaml);
        r.getMetadata().setNamespace(namespace);
        return admin.resource(r).create();
    }

    public RagSearch ragSearch(String name) {
        return admin.resources(RagSearch.class).inNamespace(namespace).withName(name).get();
    }

    public Deployment deployment(String name) {
        return admin.apps().deployments().inNamespace(namespace).withName(name).get();
    }

    /** The pods of a RagSearch's serving Deployment (not its candidate's). */
    public List<Pod> pods(String instance) {
        return admin.pods().inNamespace(namespace).withLabels(Labels.selector(instance)).list().getItems();
    }

    /** The addresses of the pods the Service of {@code instance} routes to now. */
    public List<String> readyEndpoints(String instance) {
        return ReadyEndpoints.of(admin, namespace, instance);
    }

    /**
     * Stops what the test started (last first, whatever fails), then deletes the namespace and waits
     * until it is gone: the namespace controller deletes its objects, our node stops their pods.
     */
    public void close() throws Exception {
        Exception first = null;
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        admin.namespaces().withName(namespace).delete();
        try {
            await("namespace " + namespace + " deleted").atMost(NAMESPACE_GONE).pollInterval(Duration.ofMillis(500))
                    .until(() -> admin.namespaces().withName(namespace).get() == null);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("namespace " + namespace + " not gone after " + NAMESPACE_GONE.toSeconds() + " s; pods left: "
                    + admin.pods().inNamespace(namespace).list().getItems().stream().map(p -> p.getMetadata().getName()).toList()
                    + ", running on node " + agent.node() + ": " + agent.addresses().keySet().stream()
                    .filter(p -> p.startsWith(namespace + "/")).toList(), first == null ? e : first);
        }
        if (first != null) {
            throw first;
        }
    }
}
