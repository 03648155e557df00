package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.spec.ReferenceLookup;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/** Looks the references up in the API server (a GET each; specs have a handful). */
public final class ClusterReferenceLookup implements ReferenceLookup {

    private final KubernetesClient client;

    public ClusterReferenceLookup(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Optional<Set<String>> secretKeys(String namespace, String name) {
        Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
        if (secret == null) {
            return Optional.empty();
        }
        Set<String> keys = new HashSet<>();
        if (secret.getData() != null) {
            keys.addAll(secret.getData().keySet());
        }
        if (secret.getStringData() != null) {
            keys.addAll(secret.getStringData().keySet());
        }
        return Optional.of(keys);
    }

    @Override
    public boolean configMapExists(String namespace, String name) {
        return client.configMaps().inNamespace(namespace).withName(name).get() != null;
    }

    @Override
    public boolean claimExists(String namespace, String name) {
        return client.persistentVolumeClaims().inNamespace(namespace).withName(name).get() != null;
    }
}
