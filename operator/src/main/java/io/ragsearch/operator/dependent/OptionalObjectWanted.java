package io.ragsearch.operator.dependent;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;
import io.ragsearch.operator.model.RagSearch;

/** Preconditions of the optional objects: absent from the spec means absent from the cluster (deleted if there). */
public final class OptionalObjectWanted {
    private OptionalObjectWanted() {
    }

    public static final class DisruptionBudget implements Condition<HasMetadata, RagSearch> {
        @Override
        public boolean isMet(DependentResource<HasMetadata, RagSearch> dependent, RagSearch primary, Context<RagSearch> context) {
            return primary.getSpec().podDisruptionBudget != null;
        }
    }

    public static final class NetworkPolicy implements Condition<HasMetadata, RagSearch> {
        @Override
        public boolean isMet(DependentResource<HasMetadata, RagSearch> dependent, RagSearch primary, Context<RagSearch> context) {
            return primary.getSpec().networkPolicy != null;
        }
    }

    public static final class Autoscaler implements Condition<HasMetadata, RagSearch> {
        @Override
        public boolean isMet(DependentResource<HasMetadata, RagSearch> dependent, RagSearch primary, Context<RagSearch> context) {
            return primary.getSpec().autoscaling != null;
        }
    }

    /** A new version is being verified: the reconciler put its candidate into this reconcile's manifests. */
    public static final class Candidate implements Condition<HasMetadata, RagSearch> {
        @Override
        public boolean isMet(DependentResource<HasMetadata, RagSearch> dependent, RagSearch primary, Context<RagSearch> context) {
            return DesiredManifests.of(context).candidate() != null;
        }
    }
}
