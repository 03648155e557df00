package io.ragsearch.operator.reconcile;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;

import java.time.Duration;

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
    public static final String DEFAULT_LEASE = "ragsearch-operator-lock";

    /**
     * Kubernetes' own controllers' timings: a follower takes over at most 15 s after the leader's
     * last renewal (about 2 s after a leader that stops cleanly, it releases the Lease).
     */
    public static LeaderElection inCluster(String namespace, String identity) {
        return new LeaderElection(DEFAULT_LEASE, namespace, identity, Duration.ofSeconds(15), Duration.ofSeconds(10),
                Duration.ofSeconds(2), true);
    }

    LeaderElectionConfiguration configuration() {
        LeaderElectionConfigurationBuilder b = LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(leaseName)
                .withIdentity(identity)
                .withLeaseDuration(leaseDuration).withRenewDeadline(renewDeadline).withRetryPeriod(retryPeriod)
                .withExitOnStopLeading(exitOnStopLeading);
        if (namespace != null && !namespace.isBlank()) {
            b.withLeaseNamespace(namespace);
        }
        return b.build();
    }
}
