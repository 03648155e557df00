package io.ragsearch.operator.reconcile;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.function.BooleanSupplier;

/**
 * One operator replica reconciles at a time; the others wait on a Lease and take over when the
 * leader stops renewing it. A leader that loses the Lease exits (the kubelet restarts it as a
 * follower) rather than risk two writers; tests keep the JVM and say so with
 * {@code exitOnStopLeading = false}.
 *
 * @param namespace where the Lease lives; null: the namespace of the client's service account
 * @param identity  this replica's name in the Lease (the pod name)
 */
public record LeaderElection(String leaseName, String namespace, String identity, Duration leaseDuration,
                             Duration renewDeadline, Duration retryPeriod, boolean exitOnStopLeading) {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LeaderElection.class);
    public static final String DEFAULT_LEASE = "ragsearch-operator-lock";

    /**
     * Kubernetes' own controllers' timings: a follower takes over at most 15 s after the leader's
     * last renewal (about 2 s after a leader that stops cleanly, it releases the Lease).
     */
    public static LeaderElection inCluster(String namespace, String identity) {
        return new LeaderElection(DEFAULT_LEASE, namespace, identity, Duration.ofSeconds(15), Duration.ofSeconds(10),
                Duration.ofSeconds(2), true);
    }

    /**
     * Gives the Lease up after this replica stopped reconciling, if it still holds it: JOSDK
     * cancels the election on stop without releasing (it builds fabric8's elector with
     * releaseOnCancel off), which left a cleanly stopped leader's Lease to expire — 15 s without
     * a leader at every operator roll. The update carries the Lease's resourceVersion, so a
     * follower that took it meanwhile is never overwritten.
     *
     * @return whether this replica held the Lease and released it
     */
    boolean release(KubernetesClient client) {
        String ns = namespace != null && !namespace.isBlank() ? namespace : client.getNamespace();
        try {
            Lease lease = client.leases().inNamespace(ns).withName(leaseName).get();
            if (lease == null || lease.getSpec() == null || !identity.equals(lease.getSpec().getHolderIdentity())) {
                return false;
            }
            ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
            lease.getSpec().setHolderIdentity(null);
            // What client-go writes on release: a one-second lease, so a follower acquires at its next try.
            lease.getSpec().setLeaseDurationSeconds(1);
            lease.getSpec().setAcquireTime(now);
            lease.getSpec().setRenewTime(now);
            client.resource(lease).update();
            return true;
        } catch (KubernetesClientException | IllegalStateException e) {
            // A conflict (someone else holds it now), no access or a closed client: the Lease expires as before.
            return false;
        }
    }

    /**
     * JOSDK's configuration. JOSDK's own exit on stop-leading is off: it calls {@code System.exit}
     * from the stop-leading callback also when the operator itself stops, and on SIGTERM that runs
     * inside the JVM's shutdown hook, where {@code System.exit} blocks for ever — the pod hung until
     * its grace period's SIGKILL and never released the Lease. Here the callback exits only when
     * leadership is lost while the operator runs ({@code stopping} false).
     */
    LeaderElectionConfiguration configuration(BooleanSupplier stopping) {
        LeaderCallbacks callbacks = new LeaderCallbacks(() -> { }, () -> {
            if (exitOnStopLeading && !stopping.getAsBoolean()) {
                LOG.error("lost the Lease {} while running: exiting, to restart as a follower", leaseName);
                System.exit(1);
            }
        }, leader -> { });
        LeaderElectionConfigurationBuilder b = LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(leaseName)
                .withIdentity(identity)
                .withLeaseDuration(leaseDuration).withRenewDeadline(renewDeadline).withRetryPeriod(retryPeriod)
                .withExitOnStopLeading(false)
                .withLeaderCallbacks(callbacks);
        if (namespace != null && !namespace.isBlank()) {
            b.withLeaseNamespace(namespace);
        }
        return b.build();
    }
}
