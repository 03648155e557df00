package io.ragsearch.operator.manifest;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.ragsearch.operator.naming.Labels;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything the reconciler applies for one RagSearch. The optional objects (the autoscaler among them) are null when the
 * spec does not ask for them, the candidate when no new version is being verified.
 * {@code configHash} is also on the pod template.
 */
public record Manifests(ConfigMap configMap, Deployment deployment, Service service,
                        PodDisruptionBudget disruptionBudget, NetworkPolicy networkPolicy, String configHash,
                        CandidateObjects.Candidate candidate, HorizontalPodAutoscaler autoscaler) {

    public static final Object CONTEXT_KEY = Manifests.class;

    /** The version of the pod template (see Labels.VERSION). */
    public String version() {
        return version(deployment);
    }

    /** A Deployment's version, or null for one an operator without verification wrote. */
    public static String version(Deployment d) {
        return d.getMetadata().getAnnotations() == null ? null : d.getMetadata().getAnnotations().get(Labels.VERSION);
    }

    /** The config hash a Deployment's pod template carries (the annotation beside the pods' label), or null. */
    public static String configHash(Deployment d) {
        var annotations = d.getSpec().getTemplate().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(Labels.CONFIG_HASH);
    }

    /**
     * These manifests with the serving pods left as they are: the running Deployment's pod
     * template and the ConfigMap it mounts, while a new version is verified or after it failed.
     * Replicas, strategy and everything else follow the spec.
     */
    public Manifests holding(ConfigMap runningConfig, Deployment running) {
        PodTemplateSpec runningTemplate = running.getSpec().getTemplate();
        Deployment held = new DeploymentBuilder(deployment).editSpec().withTemplate(runningTemplate).endSpec()
                .editMetadata().addToAnnotations(Labels.VERSION, version(running)).endMetadata().build();
        ConfigMap config = runningConfig == null ? configMap
                : new ConfigMapBuilder(configMap).withData(runningConfig.getData()).build();
        String runningHash = configHash(running);
        String hash = runningHash == null ? configHash : runningHash;
        return new Manifests(config, held, service, disruptionBudget, networkPolicy, hash, candidate, autoscaler);
    }

    /** These manifests with a candidate beside the serving objects. */
    public Manifests withCandidate(CandidateObjects.Candidate candidate) {
        return new Manifests(configMap, deployment, service, disruptionBudget, networkPolicy, configHash, candidate, autoscaler);
    }

    /** In apply order: the config before the pods that mount it. */
    public List<HasMetadata> all() {
        List<HasMetadata> all = new ArrayList<>(List.of(configMap, deployment, service));
        if (disruptionBudget != null) {
            all.add(disruptionBudget);
        }
        if (networkPolicy != null) {
            all.add(networkPolicy);
        }
        if (autoscaler != null) {
            all.add(autoscaler);
        }
        if (candidate != null) {
            all.add(candidate.configMap());
            all.add(candidate.deployment());
        }
        return all;
    }
}
