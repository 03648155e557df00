package io.ragsearch.operator.dependent;

import io.ragsearch.operator.manifest.Manifests;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.ragsearch.operator.model.RagSearch;

/** The reconciler computes the manifests once per reconcile and hands them to the dependents here. */
final class DesiredManifests {
    private DesiredManifests() {
    }

    static Manifests of(Context<RagSearch> context) {
        return context.managedWorkflowAndDependentResourceContext().getMandatory(Manifests.CONTEXT_KEY, Manifests.class);
    }
}
