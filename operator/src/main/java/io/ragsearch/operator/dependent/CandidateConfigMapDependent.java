package io.ragsearch.operator.dependent;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.ragsearch.operator.manifest.CandidateObjects;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;

/** The server configuration of a verification's candidate (the new version's), while one is wanted. */
@KubernetesDependent(informer = @Informer(labelSelector = Labels.MANAGED_SELECTOR))
public class CandidateConfigMapDependent extends CRUDKubernetesDependentResource<ConfigMap, RagSearch> {

    public CandidateConfigMapDependent() {
        super(ConfigMap.class);
    }

    @Override
    protected ConfigMap desired(RagSearch primary, Context<RagSearch> context) {
        CandidateObjects.Candidate wanted = DesiredManifests.of(context).candidate();
        // Not wanted: JOSDK still asks which object this dependent is, to delete it.
        return wanted != null ? wanted.configMap() : new ConfigMapBuilder().withNewMetadata()
                .withName(ObjectNames.candidateConfigMap(primary.getMetadata().getName()))
                .withNamespace(primary.getMetadata().getNamespace()).endMetadata().build();
    }
}
