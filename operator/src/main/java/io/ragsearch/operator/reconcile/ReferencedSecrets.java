package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.naming.ConfigHash;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A digest of the data of the Secrets a spec references (database credentials, bearer token).
 * Pods read them as environment variables at start only, so a rotated Secret must roll them:
 * the digest is part of the pod template's config hash, as the server configuration is. Only
 * the digest leaves this class; the data is not kept. Secrets are read with a GET (the
 * operator never lists or watches them), so a rotation is seen at the next reconcile (at most
 * the settled period, 5 minutes).
 */
final class ReferencedSecrets {

    private final KubernetesClient client;

    ReferencedSecrets(KubernetesClient client) {
        this.client = client;
    }

    /** Empty when the spec references no Secret (the config hash is then what it always was). */
    String digest(String namespace, RagSearchSpec spec) {
        List<String> names = new ArrayList<>();
        if (spec.database != null && spec.database.secretRef != null) {
            names.add(spec.database.secretRef.name);
        }
        if (spec.auth != null && spec.auth.bearerTokenSecretRef != null) {
            names.add(spec.auth.bearerTokenSecretRef.name);
        }
        if (names.isEmpty()) {
            return "";
        }
        StringBuilder all = new StringBuilder();
        for (String name : names) {
            Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
            Map<String, String> data = new TreeMap<>();
            if (secret != null && secret.getData() != null) {
                data.putAll(secret.getData());
            }
            if (secret != null && secret.getStringData() != null) {
                secret.getStringData().forEach((k, v) -> data.put(k, "string:" + v));
            }
            all.append(name).append('\0').append(data).append('\0');
        }
        return ConfigHash.of(all.toString());
    }
}
