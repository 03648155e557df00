package io.ragsearch.operator.manifest;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.spec.CheckedSpec;

/** The metadata of every object the operator owns: name, namespace, labels and the owner reference. */
final class OwnedMeta {

    private OwnedMeta() {
    }

    static ObjectMeta of(CheckedSpec spec, String name) {
        ObjectMetaBuilder b = new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(spec.namespace())
                .withLabels(Labels.labels(spec.name()));
        RagSearch owner = spec.resource();
        if (owner.getMetadata().getUid() != null) {
            OwnerReference ref = new OwnerReferenceBuilder()
                    .withApiVersion(RagSearch.API_VERSION).withKind("RagSearch")
                    .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid())
                    .withController(true).withBlockOwnerDeletion(true)
                    .build();
            b.withOwnerReferences(ref);
        }
        return b.build();
    }
}
