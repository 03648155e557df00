package io.ragsearch.operator.dependent;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything the reconciler applies for one RagSearch. The optional objects are null when the
 * spec does not ask for them. {@code configHash} is also on the pod template.
 */
public record Manifests(ConfigMap configMap, Deployment deployment, Service service,
                        PodDisruptionBudget disruptionBudget, NetworkPolicy networkPolicy, String configHash) {

    public static final Object CONTEXT_KEY = Manifests.class;

    /** In apply order: the config before the pods that mount it. */
    public List<HasMetadata> all() {
        List<HasMetadata> all = new ArrayList<>(List.of(configMap, deployment, service));
        if (disruptionBudget != null) {
            all.add(disruptionBudget);
        }
        if (networkPolicy != null) {
            all.add(networkPolicy);
        }
        return all;
    }
}
