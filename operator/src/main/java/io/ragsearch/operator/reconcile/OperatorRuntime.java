package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.ragsearch.operator.podadmin.PodAdminClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;

/**
 * The operator wired for a given client: the settings here are the ones every deployment needs.
 * {@link Apply#SERVER_SIDE} is for a real API server; {@link Apply#PLAIN} for one without
 * server-side apply (fabric8's mock in the fast tests and the playground).
 */
public final class OperatorRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);

    private final Operator operator;
    private final KubernetesClient client;
    /** Null: this instance reconciles alone. */
    private final LeaderElection leaderElection;
    /** Set by {@link #close()}: stopping on purpose is not a lost Lease (no exit then). */
    private final java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
    private final io.ragsearch.operator.metrics.OperatorMetrics metrics = new io.ragsearch.operator.metrics.OperatorMetrics();

    /** How the operator writes its objects. */
    public enum Apply {
        /**
         * Server-side apply for the children and the RagSearch's status, as on a real cluster: the
         * API server merges, tracks field ownership and removes what the operator stopped setting.
         */
        SERVER_SIDE,
        /**
         * Plain create/update and JSON-merge status patches, for an API server without server-side
         * apply (fabric8's mock); the config-hash annotation carries what field ownership would.
         */
        PLAIN
    }

    /** Plain writes (fabric8's mock). @param namespaces namespaces to watch; empty: all */
    public OperatorRuntime(KubernetesClient client, PodAdminClient calibrations, RagSearchReconciler.Settings settings,
                           Set<String> namespaces) {
        this(client, calibrations, settings, namespaces, null, Apply.PLAIN);
    }

    /** Plain writes (fabric8's mock). @param leaderElection null: this instance reconciles alone */
    public OperatorRuntime(KubernetesClient client, PodAdminClient calibrations, RagSearchReconciler.Settings settings,
                           Set<String> namespaces, LeaderElection leaderElection) {
        this(client, calibrations, settings, namespaces, leaderElection, Apply.PLAIN);
    }

    /** @param leaderElection null: this instance reconciles alone (the playground, single-replica tests) */
    public OperatorRuntime(KubernetesClient client, PodAdminClient calibrations, RagSearchReconciler.Settings settings,
                           Set<String> namespaces, LeaderElection leaderElection, Apply apply) {
        this(client, calibrations, settings, namespaces, leaderElection, apply, io.ragsearch.operator.metrics.ReconcileTraces.OFF);
    }

    /** @param traces where a span per reconcile goes (OFF: nowhere) */
    public OperatorRuntime(KubernetesClient client, PodAdminClient calibrations, RagSearchReconciler.Settings settings,
                           Set<String> namespaces, LeaderElection leaderElection, Apply apply,
                           io.ragsearch.operator.metrics.ReconcileTraces traces) {
        this.client = client;
        this.leaderElection = leaderElection;
        boolean ssa = apply == Apply.SERVER_SIDE;
        LOG.debug("writes: {}", apply);
        operator = new Operator(o -> {
            o.withKubernetesClient(client)
                .withSSABasedCreateUpdateMatchForDependentResources(ssa)
                .withUseSSAToPatchPrimaryResource(ssa)
                .withCloseClientOnStop(false)
                // The default handler exits the JVM when an informer stops; report it through health instead.
                .withInformerStoppedHandler((informer, e) -> {
                    if (e != null) {
                        LOG.error("informer stopped: {}", e.getMessage());
                    }
                });
            if (leaderElection != null) {
                o.withLeaderElectionConfiguration(leaderElection.configuration(stopping::get));
            }
        });
        operator.register(new RagSearchReconciler(client, calibrations, settings, metrics, traces),
                c -> {
                    if (!namespaces.isEmpty()) {
                        c.settingNamespaces(namespaces);
                    }
                });
    }

    /** What the operator's /metrics shows. */
    public io.ragsearch.operator.metrics.OperatorMetrics metrics() {
        return metrics;
    }

    public void start() {
        operator.start();
    }

    /** Started and every informer connected (followers too: their caches stay warm for a takeover). */
    public boolean healthy() {
        return operator.getRuntimeInfo().isStarted() && operator.getRuntimeInfo().allEventSourcesAreHealthy();
    }

    /** Stops reconciling, then hands the Lease on if this replica led (a follower takes over at its next try). */
    @Override
    public void close() {
        stopping.set(true);
        operator.stop();
        if (leaderElection != null && leaderElection.release(client)) {
            LOG.info("released the Lease {} (stopped as leader)", leaderElection.leaseName());
        }
    }
}
