package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.ragsearch.contract.verification.Verification;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.podadmin.PodAdminClient;
import io.ragsearch.operator.spec.CheckedSpec;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The HTTP side of promotion, kept out of {@link PromotionPlanner}: what the ready candidate pods'
 * /verification says, read before the decision, and starting its checks when the decision says so.
 */
final class CandidateChecks {
    private final PodAdminClient pods;
    private final int adminPort;

    CandidateChecks(PodAdminClient pods, int adminPort) {
        this.pods = pods;
        this.adminPort = adminPort;
    }

    /**
     * For each version a ready candidate pod runs, the first such pod and its run as read now. Read before the
     * decision says which version is the spec's: the candidate Deployment has one pod, two for a moment while it rolls.
     */
    Map<String, PromotionPlanner.CandidatePod> read(RolloutPods rollout) {
        Map<String, PromotionPlanner.CandidatePod> byVersion = new LinkedHashMap<>();
        for (Pod pod : candidates(rollout).toList()) {
            String version = pod.getMetadata().getLabels().get(Labels.VERSION);
            if (version != null && !byVersion.containsKey(version)) {
                byVersion.put(version, read(pod));
            }
        }
        return byVersion;
    }

    private PromotionPlanner.CandidatePod read(Pod pod) {
        PromotionPlanner.CandidateRun run;
        try {
            Optional<Verification> v = pods.verification(pod.getStatus().getPodIP(), adminPort);
            run = v.<PromotionPlanner.CandidateRun>map(PromotionPlanner.Run::new).orElseGet(PromotionPlanner.NoRun::new);
        } catch (IOException e) {
            run = new PromotionPlanner.Unreachable(e.getMessage());
        }
        return new PromotionPlanner.CandidatePod(pod.getMetadata().getName(), run);
    }

    /** Starts the checks the decision asks for; the decision as it stands after that. */
    PromotionPlanner.Decision start(PromotionPlanner.Decision decision, RolloutPods rollout, CheckedSpec spec, String version) {
        PromotionPlanner.StartChecks start = decision.start();
        if (start == null) {
            return decision;
        }
        Optional<Pod> pod = candidate(rollout, version).filter(p -> p.getMetadata().getName().equals(start.pod()));
        try {
            if (pod.isEmpty()) {
                throw new IOException("the pod is gone");
            }
            // The baseline is the serving Service (the candidate allows no other address for its token).
            pods.startVerification(pod.get().getStatus().getPodIP(), adminPort,
                    start.againstService() ? ObjectNames.serviceMcpUrl(spec.name(), spec.namespace()) : null);
            return decision;
        } catch (IOException e) {
            return PromotionPlanner.startFailed(start, e.getMessage());
        }
    }

    private static Optional<Pod> candidate(RolloutPods rollout, String version) {
        return candidates(rollout).filter(p -> version.equals(p.getMetadata().getLabels().get(Labels.VERSION))).findFirst();
    }

    /** Ready pods of a verification's candidate, of any version. */
    private static Stream<Pod> candidates(RolloutPods rollout) {
        return rollout.pods().stream()
                .filter(p -> p.getMetadata().getLabels() != null
                        && Labels.ROLE_CANDIDATE.equals(p.getMetadata().getLabels().get(Labels.LABEL_ROLE)))
                .filter(RolloutPods::ready);
    }
}
