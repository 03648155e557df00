package io.ragsearch.operator.dependent;

import io.ragsearch.operator.manifest.Manifests;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;

/** The NetworkPolicy of a RagSearch, as {@link io.ragsearch.operator.manifest.ManifestFactory} built it for this reconcile. */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_SELECTOR))
public class NetworkPolicyDependent extends CRUDKubernetesDependentResource<NetworkPolicy, RagSearch> {

    public NetworkPolicyDependent() {
        super(NetworkPolicy.class);
    }

    @Override
    protected NetworkPolicy desired(RagSearch primary, Context<RagSearch> context) {
        NetworkPolicy wanted = DesiredManifests.of(context).networkPolicy();
        // Not wanted: JOSDK still asks which object this dependent is, to delete it.
        return wanted != null ? wanted : new NetworkPolicyBuilder().withNewMetadata()
                .withName(primary.getMetadata().getName()).withNamespace(primary.getMetadata().getNamespace())
                .endMetadata().build();
    }
}
