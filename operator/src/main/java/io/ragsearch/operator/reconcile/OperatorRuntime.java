package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.ragsearch.operator.calibration.CalibrationClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;

/**
 * The operator wired for a given client: the settings here are the ones every deployment needs,
 * an API server without server-side apply included (the embedded one in tests and the playground).
 */
public final class OperatorRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);

    private final Operator operator;
    private final io.ragsearch.operator.metrics.OperatorMetrics metrics = new io.ragsearch.operator.metrics.OperatorMetrics();

    /** @param namespaces namespaces to watch; empty: all */
    public OperatorRuntime(KubernetesClient client, CalibrationClient calibrations, RagSearchReconciler.Settings settings,
                           Set<String> namespaces) {
        this(client, calibrations, settings, namespaces, null);
    }

    /** @param leaderElection null: this instance reconciles alone (the playground, single-replica tests) */
    public OperatorRuntime(KubernetesClient client, CalibrationClient calibrations, RagSearchReconciler.Settings settings,
                           Set<String> namespaces, LeaderElection leaderElection) {
        operator = new Operator(o -> {
            o.withKubernetesClient(client)
                // Plain create/update and JSON-merge status patches: they work on every API server,
                // and the config-hash annotation carries what SSA's field ownership would have.
                .withSSABasedCreateUpdateMatchForDependentResources(false)
                .withUseSSAToPatchPrimaryResource(false)
                .withCloseClientOnStop(false)
                // The default handler exits the JVM when an informer stops; report it through health instead.
                .withInformerStoppedHandler((informer, e) -> {
                    if (e != null) {
                        LOG.error("informer stopped: {}", e.getMessage());
                    }
                });
            if (leaderElection != null) {
                o.withLeaderElectionConfiguration(leaderElection.configuration());
            }
        });
        operator.register(new RagSearchReconciler(client, calibrations, settings, metrics),
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

    @Override
    public void close() {
        operator.stop();
    }
}
