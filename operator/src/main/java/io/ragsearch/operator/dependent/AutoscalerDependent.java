package io.ragsearch.operator.dependent;

import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;

/** The HorizontalPodAutoscaler of a RagSearch with spec.autoscaling, as {@link io.ragsearch.operator.manifest.ManifestFactory} built it. */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_SELECTOR))
public class AutoscalerDependent extends CRUDKubernetesDependentResource<HorizontalPodAutoscaler, RagSearch> {

    public AutoscalerDependent() {
        super(HorizontalPodAutoscaler.class);
    }

    @Override
    protected HorizontalPodAutoscaler desired(RagSearch primary, Context<RagSearch> context) {
        HorizontalPodAutoscaler wanted = DesiredManifests.of(context).autoscaler();
        // Not wanted: JOSDK still asks which object this dependent is, to delete it.
        return wanted != null ? wanted : new HorizontalPodAutoscalerBuilder().withNewMetadata()
                .withName(primary.getMetadata().getName()).withNamespace(primary.getMetadata().getNamespace())
                .endMetadata().build();
    }
}
