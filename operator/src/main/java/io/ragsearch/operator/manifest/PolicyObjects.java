package io.ragsearch.operator.manifest;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpecBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.spec.CheckedSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The objects a spec may ask for besides the server: a PodDisruptionBudget, a NetworkPolicy and a HorizontalPodAutoscaler. */
final class PolicyObjects {

    private PolicyObjects() {
    }

    static PodDisruptionBudget disruptionBudget(CheckedSpec spec) {
        if (spec.spec().podDisruptionBudget == null) {
            return null;
        }
        Integer min = spec.spec().podDisruptionBudget.minAvailable;
        return new PodDisruptionBudgetBuilder()
                .withMetadata(OwnedMeta.of(spec, spec.name()))
                .withNewSpec()
                .withMinAvailable(new IntOrString(min == null ? 1 : min))
                .withNewSelector().withMatchLabels(Labels.selector(spec.name())).endSelector()
                .endSpec()
                .build();
    }

    /**
     * The autoscaler of spec.autoscaling. It scales the RagSearch, not the Deployment: through the
     * RagSearch's scale subresource it moves spec.replicas, which the operator writes into the
     * Deployment, so the operator never undoes what the autoscaler decided (one owner of the number).
     */
    static HorizontalPodAutoscaler autoscaler(CheckedSpec spec) {
        CheckedSpec.Autoscale a = spec.autoscale();
        if (a == null) {
            return null;
        }
        List<MetricSpec> metrics = new ArrayList<>();
        if (a.cpuPercent() != null) {
            metrics.add(utilization("cpu", a.cpuPercent()));
        }
        if (a.memoryPercent() != null) {
            metrics.add(utilization("memory", a.memoryPercent()));
        }
        return new HorizontalPodAutoscalerBuilder()
                .withMetadata(OwnedMeta.of(spec, spec.name()))
                .withNewSpec()
                .withNewScaleTargetRef().withApiVersion(RagSearch.API_VERSION).withKind("RagSearch").withName(spec.name()).endScaleTargetRef()
                .withMinReplicas(a.minReplicas())
                .withMaxReplicas(a.maxReplicas())
                .withMetrics(metrics)
                .withNewBehavior().withNewScaleDown().withStabilizationWindowSeconds(a.scaleDownStabilizationSeconds())
                .endScaleDown().endBehavior()
                .endSpec()
                .build();
    }

    private static MetricSpec utilization(String resource, int percent) {
        return new MetricSpecBuilder().withType("Resource").withNewResource().withName(resource)
                .withNewTarget().withType("Utilization").withAverageUtilization(percent).endTarget()
                .endResource().build();
    }

    static NetworkPolicy networkPolicy(CheckedSpec spec, AdminAccess admin) {
        var access = spec.spec().networkPolicy;
        if (access == null) {
            return null;
        }
        NetworkPolicyPeerBuilder clients = new NetworkPolicyPeerBuilder()
                .withNewPodSelector().withMatchLabels(access.clientPodLabels == null ? Map.of() : access.clientPodLabels).endPodSelector();
        if (access.clientNamespaceLabels != null) {
            clients.withNewNamespaceSelector().withMatchLabels(access.clientNamespaceLabels).endNamespaceSelector();
        }
        // The operator's pods, in the operator's namespace only (any namespace when it is not known, as in render).
        NetworkPolicyPeer operator = new NetworkPolicyPeerBuilder()
                .withNewNamespaceSelector().withMatchLabels(admin.operatorNamespace() == null ? Map.of()
                        : Map.of(AdminAccess.NAMESPACE_NAME_LABEL, admin.operatorNamespace())).endNamespaceSelector()
                .withNewPodSelector().addToMatchLabels(Labels.LABEL_NAME, Labels.MANAGED_BY).endPodSelector()
                .build();
        List<NetworkPolicyPeer> adminPeers = new ArrayList<>(List.of(operator));
        if (admin.scraped()) {
            NetworkPolicyPeerBuilder scraper = new NetworkPolicyPeerBuilder().withNewPodSelector()
                    .withMatchLabels(admin.scrapePodLabels() == null ? Map.of() : admin.scrapePodLabels()).endPodSelector();
            if (admin.scrapeNamespace() != null) {
                scraper.withNewNamespaceSelector().withMatchLabels(Map.of(AdminAccess.NAMESPACE_NAME_LABEL, admin.scrapeNamespace()))
                        .endNamespaceSelector();
            }
            adminPeers.add(scraper.build());
        }
        // A verification's candidate pod of the same RagSearch calls the serving pods' MCP port through the Service.
        NetworkPolicyPeer candidates = new NetworkPolicyPeerBuilder().withNewPodSelector()
                .addToMatchLabels(Labels.LABEL_INSTANCE, spec.name()).addToMatchLabels(Labels.LABEL_ROLE, Labels.ROLE_CANDIDATE)
                .endPodSelector().build();
        return new NetworkPolicyBuilder()
                .withMetadata(OwnedMeta.of(spec, spec.name()))
                .withNewSpec()
                // The serving pods and a verification's candidate alike: the candidate's admin port takes the POST
                // that makes it call out with the bearer token, and must be no more open than the serving pods'.
                .withNewPodSelector().addToMatchLabels(Labels.LABEL_INSTANCE, spec.name())
                .addToMatchLabels(Labels.LABEL_MANAGED_BY, Labels.MANAGED_BY).endPodSelector()
                .withPolicyTypes("Ingress")
                .addNewIngress().withFrom(clients.build(), candidates)
                .addNewPort().withPort(new IntOrString(PodLayout.MCP_PORT)).withProtocol("TCP").endPort().endIngress()
                .addNewIngress().withFrom(adminPeers)
                .addNewPort().withPort(new IntOrString(PodLayout.ADMIN_PORT)).withProtocol("TCP").endPort().endIngress()
                .endSpec()
                .build();
    }
}
