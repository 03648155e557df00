package io.ragsearch.operator.dependent;

import io.ragsearch.operator.manifest.Manifests;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;

/** The PodDisruptionBudget of a RagSearch, as {@link io.ragsearch.operator.manifest.ManifestFactory} built it for this reconcile. */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_SELECTOR))
public class DisruptionBudgetDependent extends CRUDKubernetesDependentResource<PodDisruptionBudget, RagSearch> {

    public DisruptionBudgetDependent() {
        super(PodDisruptionBudget.class);
    }

    @Override
    protected PodDisruptionBudget desired(RagSearch primary, Context<RagSearch> context) {
        PodDisruptionBudget wanted = DesiredManifests.of(context).disruptionBudget();
        // Not wanted: JOSDK still asks which object this dependent is, to delete it.
        return wanted != null ? wanted : new PodDisruptionBudgetBuilder().withNewMetadata()
                .withName(primary.getMetadata().getName()).withNamespace(primary.getMetadata().getNamespace())
                .endMetadata().build();
    }
}
