package io.ragsearch.operator.manifest;

import java.util.Map;

/**
 * Who may reach a pod's admin port (8081) when a RagSearch asks for a NetworkPolicy: the
 * operator's pods in the operator's namespace (it reads /calibration and /info there), and
 * optionally a scraper (Prometheus) for /metrics. Kubelet probes are not subject to it.
 *
 * @param operatorNamespace where the operator runs; null (render, without a cluster): any namespace
 * @param scrapeNamespace namespace of the scraper; null: none, unless {@code scrapePodLabels} is set (then this namespace)
 * @param scrapePodLabels labels of the scraper's pods; null or empty: every pod of {@code scrapeNamespace}
 */
public record AdminAccess(String operatorNamespace, String scrapeNamespace, Map<String, String> scrapePodLabels) {

    /** The well-known label every namespace carries with its own name (Kubernetes 1.21+). */
    public static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    /** Not known (render): operator pods of any namespace, no scraper. */
    public static final AdminAccess UNKNOWN = new AdminAccess(null, null, null);

    public boolean scraped() {
        return scrapeNamespace != null || (scrapePodLabels != null && !scrapePodLabels.isEmpty());
    }
}
