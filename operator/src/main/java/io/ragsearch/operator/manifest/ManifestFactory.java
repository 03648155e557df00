package io.ragsearch.operator.manifest;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.operator.naming.ConfigHash;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.spec.CheckedSpec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the objects the reconciler applies, as pure functions of the checked spec and the
 * chosen concurrency: the reconciler and {@code render} print the same thing. The pod template
 * is {@link PodTemplate}'s, the optional objects {@link PolicyObjects}', the server's
 * configuration {@link ServerConfigYaml}'s; this class puts them together and hashes them.
 */
public final class ManifestFactory {

    private ManifestFactory() {
    }

    public static Manifests build(CheckedSpec spec, int concurrency) {
        return build(spec, concurrency, "", AdminAccess.UNKNOWN);
    }

    /**
     * @param secretsDigest a digest of the referenced Secrets' data (empty: none, or not looked
     *     up, as in render): part of the config hash, so a rotated Secret rolls the pods
     * @param admin who may reach the admin port under a NetworkPolicy
     */
    public static Manifests build(CheckedSpec spec, int concurrency, String secretsDigest, AdminAccess admin) {
        String configYaml = ServerConfigYaml.render(spec);
        ConfigMap configMap = new ConfigMapBuilder()
                .withMetadata(OwnedMeta.of(spec, ObjectNames.configMap(spec.name())))
                .addToData(PodLayout.CONFIG_FILE, configYaml)
                .build();
        PodSpec pod = PodTemplate.podSpec(spec, concurrency);
        Map<String, String> podLabels = new LinkedHashMap<>(PodPlacement.extraLabels(spec));
        Map<String, String> podAnnotations = new LinkedHashMap<>(PodPlacement.extraAnnotations(spec));
        // Without server-side apply only a changed hash makes a metadata edit (or a rotated Secret) reach the pods.
        String besidesPod = "\n" + configYaml + (secretsDigest.isEmpty() ? "" : "\n" + secretsDigest)
                + "\n" + new TreeMap<>(podLabels) + "\n" + new TreeMap<>(podAnnotations);
        String hash = ConfigHash.of(Serialization.asJson(pod) + besidesPod);
        // The same digest with a fixed concurrency: what a verification compares (see Labels.VERSION).
        String version = ConfigHash.of(Serialization.asJson(PodTemplate.podSpec(spec, 1)) + besidesPod);
        podLabels.putAll(Labels.labels(spec.name()));
        podLabels.put(Labels.CONFIG_HASH, hash);
        podLabels.put(Labels.CALIBRATION_KEY, spec.calibrationKey());
        // On the Deployment, not the pod template: adding it rolls no pod of an existing install.
        Deployment deployment = new DeploymentBuilder()
                .withMetadata(OwnedMeta.of(spec, spec.name()))
                .editMetadata().addToAnnotations(Labels.VERSION, version).endMetadata()
                .withNewSpec()
                // spec.replicas, which the scale subresource moves (kubectl scale, the autoscaler): one owner of the number.
                .withReplicas(spec.replicas())
                .withNewSelector().withMatchLabels(Labels.selector(spec.name())).endSelector()
                // Surge before removing: a roll never drops below the desired ready pods.
                .withNewStrategy().withType("RollingUpdate").withNewRollingUpdate()
                .withMaxSurge(new IntOrString(1)).withMaxUnavailable(new IntOrString(0))
                .endRollingUpdate().endStrategy()
                .withNewTemplate()
                .withNewMetadata().withLabels(podLabels).withAnnotations(podAnnotations).addToAnnotations(Labels.CONFIG_HASH, hash).endMetadata()
                .withSpec(pod)
                .endTemplate()
                .endSpec()
                .build();
        Service service = new ServiceBuilder()
                .withMetadata(OwnedMeta.of(spec, spec.name()))
                .withNewSpec()
                .withType("ClusterIP")
                .withSelector(Labels.selector(spec.name()))
                .addNewPort().withName(PodLayout.MCP_PORT_NAME).withPort(PodLayout.MCP_PORT)
                .withTargetPort(new IntOrString(PodLayout.MCP_PORT_NAME)).withProtocol("TCP").endPort()
                .endSpec()
                .build();
        return new Manifests(configMap, deployment, service, PolicyObjects.disruptionBudget(spec), PolicyObjects.networkPolicy(spec, admin), hash, null,
                PolicyObjects.autoscaler(spec));
    }
}
