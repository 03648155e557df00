package io.ragsearch.operator.spec;

import io.ragsearch.contract.BuiltinModels;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.model.SchemaBounds;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything the schema cannot say (or a cluster without validation let through): every problem
 * is listed at once, so a person fixes the spec in one edit. Each part of the spec has its own
 * check, which applies the defaults ({@link SpecDefaults}) and yields its part of the
 * {@link CheckedSpec}; this class runs them and assembles the result.
 */
public final class SpecCheck {

    /** The outcome: a checked spec, or the list of problems. */
    public record Result(Optional<CheckedSpec> spec, List<String> problems) {
        public boolean valid() {
            return problems.isEmpty();
        }
    }

    private SpecCheck() {
    }

    /** @param lookup where referenced objects are looked up; null (render) skips those checks */
    public static Result check(RagSearch resource, ReferenceLookup lookup) {
        RagSearchSpec spec = resource.getSpec();
        if (spec == null) {
            return new Result(Optional.empty(), List.of("spec is missing"));
        }
        String namespace = resource.getMetadata().getNamespace();
        List<String> problems = new ArrayList<>();
        if (spec.image == null || spec.image.isBlank()) {
            problems.add("spec.image is required");
        }
        NamesCheck.check(resource, problems);
        CheckedSpec.Rollout rollout = rollout(spec, problems);
        CheckedSpec.Limits limits = LimitsCheck.check(spec.resources, problems);
        // The fewest pods there may be: an autoscaler goes down to its minReplicas, whatever spec.replicas says now.
        if (rollout.autoscale() == null) {
            PodCheck.check(spec, rollout.replicas(), "spec.replicas", problems);
        } else {
            PodCheck.check(spec, rollout.autoscale().minReplicas(), "spec.autoscaling.minReplicas", problems);
        }
        ProjectCheck.check(spec, namespace, lookup, problems);
        ModelSource reranker = spec.models == null ? null : spec.models.reranker;
        if (spec.models != null) {
            ModelCheck.check("spec.models.embedding", spec.models.embedding, BuiltinModels.EMBEDDINGS, namespace, lookup, problems);
            ModelCheck.check("spec.models.reranker", reranker, BuiltinModels.RERANKERS, namespace, lookup, problems);
            ModelCheck.embedding("spec.models.embedding", spec.models.embedding, problems);
            ModelCheck.reranker("spec.models.reranker", reranker, problems);
        }
        // The vector cache's claim is mounted like a model's: the same checks, so a bad one is InvalidSpec, not a refused Deployment.
        ModelCheck.claim("spec.vectorCache", spec.vectorCache, namespace, lookup, problems);
        SecretCheck.check(spec, namespace, lookup, problems);
        AuthCheck.check(spec.auth, problems);
        // A missing checks ConfigMap would leave the candidate unable to start: refused here, the running version untouched.
        if (spec.verification != null && lookup != null && spec.verification.configMap != null
                && !lookup.configMapExists(namespace, spec.verification.configMap)) {
            problems.add("spec.verification.configMap '" + spec.verification.configMap + "' not found in namespace " + namespace);
        }
        if (spec.gate != null) {
            String gate = SettingsRules.gateThreshold("spec.gate.threshold", spec.gate.threshold);
            if (gate != null) {
                problems.add(gate);
            }
        }
        CheckedSpec.RerankSettings rerank = RerankCheck.check(spec.rerank, problems);
        CheckedSpec.Verification verification = verification(spec, problems);
        if (!problems.isEmpty()) {
            return new Result(Optional.empty(), List.copyOf(problems));
        }
        CheckedSpec.Reranker checkedReranker = ModelCheck.reranker(reranker);
        return new Result(Optional.of(new CheckedSpec(resource, rollout, limits, rerank, checkedReranker, verification,
                CalibrationKey.of(spec.image, limits, rerank, checkedReranker))), List.of());
    }

    private static CheckedSpec.Verification verification(RagSearchSpec spec, List<String> problems) {
        if (spec.verification == null) {
            return null;
        }
        int timeout = spec.verification.timeoutSeconds == null ? SpecDefaults.VERIFICATION_TIMEOUT_SECONDS
                : spec.verification.timeoutSeconds;
        if (timeout < SchemaBounds.VERIFICATION_TIMEOUT_MIN_SECONDS || timeout > SchemaBounds.VERIFICATION_TIMEOUT_MAX_SECONDS) {
            problems.add("spec.verification.timeoutSeconds must be in [" + SchemaBounds.VERIFICATION_TIMEOUT_MIN_SECONDS + ", "
                    + SchemaBounds.VERIFICATION_TIMEOUT_MAX_SECONDS + "], got " + timeout);
        }
        boolean jwt = spec.auth != null && "jwt".equals(spec.auth.mode);
        return new CheckedSpec.Verification(spec.verification.configMap,
                spec.verification.key == null ? SpecDefaults.VERIFICATION_KEY : spec.verification.key, timeout, !jwt);
    }

    /**
     * Replicas as spec.replicas says (the scale subresource writes it: kubectl scale, an autoscaler);
     * absent (render, the mock: no API server applied the schema's default 1), the default, or with
     * spec.autoscaling its minReplicas, where the autoscaler would take it.
     */
    private static CheckedSpec.Rollout rollout(RagSearchSpec spec, List<String> problems) {
        CheckedSpec.Autoscale autoscale = AutoscaleCheck.check(spec, problems);
        int replicas = spec.replicas != null ? spec.replicas
                : autoscale != null ? autoscale.minReplicas() : SpecDefaults.REPLICAS;
        if (replicas < 0) {
            problems.add("spec.replicas must be 0 or more, got " + replicas);
        }
        int startup = spec.startupTimeoutSeconds == null ? SpecDefaults.STARTUP_TIMEOUT_SECONDS : spec.startupTimeoutSeconds;
        if (startup < SchemaBounds.STARTUP_TIMEOUT_MIN_SECONDS || startup > SchemaBounds.STARTUP_TIMEOUT_MAX_SECONDS) {
            problems.add("spec.startupTimeoutSeconds must be in [" + SchemaBounds.STARTUP_TIMEOUT_MIN_SECONDS + ", "
                    + SchemaBounds.STARTUP_TIMEOUT_MAX_SECONDS + "], got " + startup);
        }
        return new CheckedSpec.Rollout(replicas, startup, autoscale);
    }
}
