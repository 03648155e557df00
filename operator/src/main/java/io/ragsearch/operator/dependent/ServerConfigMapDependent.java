package io.ragsearch.operator.dependent;

import io.ragsearch.operator.manifest.Manifests;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;

/** The ConfigMap of a RagSearch, as {@link io.ragsearch.operator.manifest.ManifestFactory} built it for this reconcile. */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_SELECTOR))
public class ServerConfigMapDependent extends CRUDKubernetesDependentResource<ConfigMap, RagSearch> {

    public ServerConfigMapDependent() {
        super(ConfigMap.class);
    }

    @Override
    protected ConfigMap desired(RagSearch primary, Context<RagSearch> context) {
        return DesiredManifests.of(context).configMap();
    }
}
