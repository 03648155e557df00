package io.ragsearch.sim.playground;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.sim.node.EndpointReadiness;

import java.util.List;

/**
 * What a Service would route to: the addresses of the ready pods its selector matches (a
 * verification's candidate pods carry another name label), as the API server shows them now.
 */
public final class ReadyEndpoints {
    private ReadyEndpoints() {
    }

    public static List<String> of(KubernetesClient client, String namespace, String instance) {
        return client.pods().inNamespace(namespace).withLabels(Labels.selector(instance)).list().getItems().stream()
                .filter(EndpointReadiness::routable)
                .map(Pod::getStatus).map(s -> s.getPodIP())
                .sorted().toList();
    }
}
