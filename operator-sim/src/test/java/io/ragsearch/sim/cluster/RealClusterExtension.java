package io.ragsearch.sim.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.sim.node.NodeAgent;
import io.ragsearch.sim.node.NodeRegistration;
import io.ragsearch.sim.plane.ControlPlane;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.function.UnaryOperator;

/**
 * The process-level tests' cluster, told once: {@code @ExtendWith(RealClusterExtension.class)} and a
 * {@link TestCluster} parameter give each test the JVM's shared control plane (the RagSearch CRD
 * applied), an admin client, a namespace of its own that is deleted after it (and waited on until
 * it is gone, so nothing of one test reaches the next), our node agent running the pods, and the
 * operator when the test starts it. No state passes from one test to another: each sets up what
 * it needs. A {@link TestCluster} parameter of a {@code @BeforeAll} method is the class's own (its
 * namespace holds what every test of the class uses, the chart's operator pods say) and goes after
 * the class.
 *
 * <p>A class whose pods run other programs than the server registers the extension itself,
 * {@code @RegisterExtension static final RealClusterExtension CLUSTER = RealClusterExtension.withNode(s -> s.withProgram(…))}:
 * the node agent's settings are the class's, everything else is the same.
 *
 * <p>The node agent lives as long as the test class, not the JVM: the other real-plane classes
 * still start agents of their own, and two agents at once would both bind the unplaced pods. Its
 * node has a name of its own, so it never runs a pod another class's agent left bound to its node.
 */
public final class RealClusterExtension implements BeforeAllCallback, AfterEachCallback, AfterAllCallback, ParameterResolver {
    /** Our node for these tests (the other classes' agents register {@link NodeAgent#DEFAULT_NODE}). */
    public static final String NODE = "ragsearch-test-node";
    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(RealClusterExtension.class);

    private final UnaryOperator<NodeAgent.Settings> nodeSettings;

    /** As {@code @ExtendWith(RealClusterExtension.class)}: the node runs the server's jar. */
    public RealClusterExtension() {
        this(UnaryOperator.identity());
    }

    private RealClusterExtension(UnaryOperator<NodeAgent.Settings> nodeSettings) {
        this.nodeSettings = nodeSettings;
    }

    /** The extension with the node agent's settings changed, e.g. images mapped to other programs. */
    public static RealClusterExtension withNode(UnaryOperator<NodeAgent.Settings> nodeSettings) {
        return new RealClusterExtension(nodeSettings);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        node(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(STORE).getOrComputeIfAbsent(context.getUniqueId(), k -> {
            Node node = node(context);
            String hint = context.getTestMethod().map(java.lang.reflect.Method::getName)
                    .orElseGet(() -> context.getRequiredTestClass().getSimpleName().toLowerCase(java.util.Locale.ROOT));
            return new TestCluster(node.plane, node.admin, node.agent, node.workDir, node.plane.namespace(shortHint(hint)));
        }, TestCluster.class);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        close(context);
    }

    /** The class's own cluster (resolved in a {@code @BeforeAll}) goes before the node agent does. */
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close(context);
    }

    private static void close(ExtensionContext context) throws Exception {
        TestCluster cluster = context.getStore(STORE).remove(context.getUniqueId(), TestCluster.class);
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A test method's name, cut so the namespace's name (with its counter) stays within 63 characters. */
    public static String shortHint(String method) {
        return method.length() <= 40 ? method : method.substring(0, 40);
    }

    /** The class's plane, client and node agent, made on first use and closed after the class. */
    private Node node(ExtensionContext context) {
        ExtensionContext classContext = context.getTestClass().isPresent() && context.getTestMethod().isPresent()
                ? context.getParent().orElse(context) : context;
        return classContext.getStore(STORE).getOrComputeIfAbsent(Node.class, k -> Node.start(nodeSettings), Node.class);
    }

    /** What the tests of one class share. */
    public static final class Node implements ExtensionContext.Store.CloseableResource {
        final ControlPlane plane;
        final KubernetesClient admin;
        final NodeAgent agent;
        final java.nio.file.Path workDir;

        private Node(ControlPlane plane, KubernetesClient admin, NodeAgent agent, java.nio.file.Path workDir) {
            this.plane = plane;
            this.admin = admin;
            this.agent = agent;
            this.workDir = workDir;
        }

        static Node start(UnaryOperator<NodeAgent.Settings> nodeSettings) {
            ControlPlane plane = ControlPlane.get();
            KubernetesClient admin = plane.adminClient();
            try {
                plane.applyRagSearchCrd(admin);
                // under /tmp: the pods' jar lies where their own /tmp emptyDir hides it (NodeAgentPodsIT)
                java.nio.file.Path workDir = Files.createTempDirectory(java.nio.file.Path.of("/tmp"), "ragsearch-test-node");
                NodeAgent agent = new NodeAgent(admin, nodeSettings.apply(NodeAgent.Settings.of(ServerJar.path(), workDir)), NODE);
                agent.start();
                return new Node(plane, admin, agent, workDir);
            } catch (IOException e) {
                admin.close();
                throw new UncheckedIOException(e);
            } catch (RuntimeException | Error e) {
                admin.close();
                throw e;
            }
        }

        /**
         * Stops the agent and removes its Node and the Node's Lease: no node that nothing serves is
         * left for the later classes (metrics-server would try to scrape it, for one).
         */
        @Override
        public void close() {
            try {
                agent.close();
                admin.leases().inNamespace(NodeRegistration.LEASE_NAMESPACE).withName(NODE).delete();
                admin.nodes().withName(NODE).delete();
            } finally {
                admin.close();
            }
        }
    }
}
