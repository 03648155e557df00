package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchStatus;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one reconcile reads about a RagSearch, read before anything is decided or written
 * ({@link ClusterObserver}): the decision ({@link Decider}) is a function of this record alone.
 *
 * @param resource the RagSearch as the informer gave it; its status is the previous decision
 * @param now      the clock, read once the reads are done: the one time the decision uses
 * @param checked  the spec's checks, which looked its references up in the cluster
 * @param cluster  what else was read; null for a spec that failed its checks (nothing more is read then)
 */
record Observation(RagSearch resource, Instant now, SpecCheck.Result checked, Cluster cluster) {

    /**
     * What is read for a valid spec.
     *
     * @param spec          the checked spec
     * @param atTemplate    the spec under the limits the running Deployment's pod template was made with; the spec
     *                      itself (the same object) when they are the spec's or nothing runs yet
     * @param pods          the RagSearch's pods, as the informer sees them
     * @param running       the serving Deployment as it runs, null before there is one
     * @param runningConfig the ConfigMap its pods mount, null before there is one
     * @param secretsDigest the digest of the referenced Secrets' data (empty: none referenced)
     * @param calibrations  by calibration key (the spec's, and the template's when it differs): what the ready pods
     *                      labelled with it measured
     * @param support       whether the cluster resizes pods in place; null when the limits are the template's (not asked)
     * @param databases     the ready pods' database state (empty without spec.database)
     * @param embedding     the article embedding of pods started but not ready
     * @param candidates    by version: a ready candidate pod of it and its verification run (empty without spec.verification)
     */
    record Cluster(CheckedSpec spec, CheckedSpec atTemplate, RolloutPods pods, Deployment running, ConfigMap runningConfig,
                   String secretsDigest, Map<String, List<RerankPlanner.PodMeasurement>> calibrations,
                   ResizePlanner.Support support, List<DatabaseReader.PodDatabase> databases,
                   List<EmbeddingReader.PodEmbedding> embedding, Map<String, PromotionPlanner.CandidatePod> candidates) {

        /** The limits the running template was made with differ from the spec's. */
        boolean limitsDiffer() {
            return atTemplate != spec;
        }

        /** What the ready pods labelled with this spec's calibration key measured. */
        List<RerankPlanner.PodMeasurement> measuredUnder(CheckedSpec rendered) {
            return calibrations.getOrDefault(rendered.calibrationKey(), List.of());
        }
    }

    /** The status the previous reconcile wrote, null before the first. */
    RagSearchStatus previous() {
        return resource.getStatus();
    }
}
