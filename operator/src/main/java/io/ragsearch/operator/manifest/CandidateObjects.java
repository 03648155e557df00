package io.ragsearch.operator.manifest;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.ragsearch.contract.Environment;
import io.ragsearch.operator.naming.Labels;
import io.ragsearch.operator.naming.ObjectNames;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.spec.CheckedSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The candidate of a new version: one pod of the new template next to the serving ones, with
 * its own copy of the new server configuration (the serving pods' ConfigMap keeps the running
 * version's until promotion, so a serving pod that restarts meanwhile starts as it was) and the
 * checks file mounted. Its name label differs from the serving pods', so the Service, the
 * serving Deployment and the disruption budget never select it; the instance label stays, so the
 * operator sees its pods.
 */
public final class CandidateObjects {

    public record Candidate(ConfigMap configMap, Deployment deployment) {
    }

    private CandidateObjects() {
    }

    public static Candidate build(CheckedSpec spec, Manifests manifests) {
        CheckedSpec.Verification verification = spec.verification();
        String name = spec.name();
        ConfigMap config = new ConfigMapBuilder(manifests.configMap())
                .withMetadata(OwnedMeta.of(spec, ObjectNames.candidateConfigMap(name)))
                .build();
        PodTemplateSpec template = manifests.deployment().getSpec().getTemplate();
        Map<String, String> labels = new LinkedHashMap<>(template.getMetadata().getLabels());
        labels.put(Labels.LABEL_NAME, Labels.CANDIDATE_NAME);
        labels.put(Labels.LABEL_ROLE, Labels.ROLE_CANDIDATE);
        labels.put(Labels.VERSION, manifests.version());
        Map<String, String> selector = Map.of(Labels.LABEL_NAME, Labels.CANDIDATE_NAME, Labels.LABEL_INSTANCE, name);

        List<Volume> volumes = new ArrayList<>();
        for (Volume v : template.getSpec().getVolumes()) {
            if (v.getConfigMap() != null && ObjectNames.configMap(name).equals(v.getConfigMap().getName())) {
                volumes.add(new VolumeBuilder(v).editConfigMap().withName(ObjectNames.candidateConfigMap(name)).endConfigMap().build());
            } else {
                volumes.add(v);
            }
        }
        volumes.add(new VolumeBuilder().withName(PodLayout.CHECKS_VOLUME).withNewConfigMap().withName(verification.configMap())
                .endConfigMap().build());
        List<Container> containers = new ArrayList<>();
        for (Container c : template.getSpec().getContainers()) {
            if (!c.getName().equals(PodLayout.SERVER_CONTAINER)) {
                containers.add(c);
                continue;
            }
            containers.add(new ContainerBuilder(c)
                    .addToEnv(new EnvVarBuilder().withName(Environment.VERIFY_CHECKS)
                            .withValue(PodLayout.CHECKS_DIR + "/" + verification.key()).build())
                    // The one baseline the candidate may call (with its bearer token): the serving Service of this RagSearch.
                    .addToEnv(new EnvVarBuilder().withName(Environment.VERIFY_BASELINES)
                            .withValue(ObjectNames.serviceHost(name, spec.namespace()) + ":" + PodLayout.MCP_PORT).build())
                    .addToVolumeMounts(new VolumeMountBuilder().withName(PodLayout.CHECKS_VOLUME).withMountPath(PodLayout.CHECKS_DIR)
                            .withReadOnly(true).build())
                    .build());
        }
        PodTemplateSpec candidateTemplate = new PodTemplateSpecBuilder(template)
                .editMetadata().withLabels(labels).endMetadata()
                .editSpec().withVolumes(volumes).withContainers(containers).endSpec()
                .build();
        Deployment deployment = new DeploymentBuilder()
                .withMetadata(OwnedMeta.of(spec, ObjectNames.candidate(name)))
                .editMetadata().addToAnnotations(Labels.VERSION, manifests.version()).addToLabels(Labels.LABEL_ROLE, Labels.ROLE_CANDIDATE)
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                .withNewSelector().withMatchLabels(selector).endSelector()
                .withTemplate(candidateTemplate)
                .endSpec()
                .build();
        return new Candidate(config, deployment);
    }
}
