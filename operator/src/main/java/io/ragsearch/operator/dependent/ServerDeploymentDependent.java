package io.ragsearch.operator.dependent;

import io.ragsearch.operator.manifest.Manifests;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;

/** The Deployment of a RagSearch, as {@link io.ragsearch.operator.manifest.ManifestFactory} built it for this reconcile. */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_SELECTOR))
public class ServerDeploymentDependent extends CRUDKubernetesDependentResource<Deployment, RagSearch> {

    public ServerDeploymentDependent() {
        super(Deployment.class);
    }

    @Override
    protected Deployment desired(RagSearch primary, Context<RagSearch> context) {
        return DesiredManifests.of(context).deployment();
    }
}
