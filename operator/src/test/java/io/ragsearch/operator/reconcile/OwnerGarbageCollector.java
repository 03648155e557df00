package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.List;

/**
 * What Kubernetes' garbage collector does for the kinds the operator creates, for an API server
 * without one (fabric8's mock): an object whose owner reference names an owner that no longer
 * exists (by uid) is deleted. The operator relies on owner references for deletion (no
 * finalizer), so the fast reconciler tests on the mock need this to see a deleted RagSearch's
 * children go (on the real control plane its own garbage collector does it).
 */
public final class OwnerGarbageCollector {

    private static final List<Class<? extends HasMetadata>> KINDS =
            List.of(Deployment.class, Service.class, ConfigMap.class, PodDisruptionBudget.class, NetworkPolicy.class);

    private final KubernetesClient client;

    public OwnerGarbageCollector(KubernetesClient client) {
        this.client = client;
    }

    /** One pass; returns how many objects were deleted. */
    public int collect() {
        int deleted = 0;
        for (Class<? extends HasMetadata> kind : KINDS) {
            for (HasMetadata object : client.resources(kind).inAnyNamespace().list().getItems()) {
                List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
                if (owners != null && !owners.isEmpty() && owners.stream().noneMatch(o -> exists(object, o))) {
                    client.resource(object).delete();
                    deleted++;
                }
            }
        }
        return deleted;
    }

    private boolean exists(HasMetadata object, OwnerReference owner) {
        HasMetadata found = client.genericKubernetesResources(owner.getApiVersion(), owner.getKind())
                .inNamespace(object.getMetadata().getNamespace()).withName(owner.getName()).get();
        return found != null && owner.getUid().equals(found.getMetadata().getUid());
    }
}
