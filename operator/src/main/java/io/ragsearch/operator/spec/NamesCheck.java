package io.ragsearch.operator.spec;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.model.SecretKeys;
import io.ragsearch.operator.naming.KubeNames;

import java.util.List;
import java.util.Map;

/**
 * Every name, key and reference of a RagSearch that ends up in an object the operator writes,
 * checked by the API server's own rules ({@link KubeNames}) before any object is built: the
 * RagSearch's name and namespace, the image, the pods' labels, annotation keys and node selector,
 * the network policy's label selectors, and the Secrets, ConfigMaps, claims, pull secrets and
 * priority class it names. A value that is absent is the other checks' business (they say it is
 * required where it is).
 */
final class NamesCheck {
    private NamesCheck() {
    }

    static void check(RagSearch resource, List<String> problems) {
        add(problems, KubeNames.dns1035Label("metadata.name", resource.getMetadata().getName()));
        if (resource.getMetadata().getNamespace() != null) {
            add(problems, KubeNames.dns1123Label("metadata.namespace", resource.getMetadata().getNamespace()));
        }
        RagSearchSpec spec = resource.getSpec();
        if (spec.image != null && !spec.image.isBlank()) {
            add(problems, KubeNames.image("spec.image", spec.image));
        }
        if (spec.pod != null) {
            labels("spec.pod.labels", spec.pod.labels, problems);
            labels("spec.pod.nodeSelector", spec.pod.nodeSelector, problems);
            if (spec.pod.annotations != null) {
                spec.pod.annotations.keySet().forEach(k -> add(problems, KubeNames.qualifiedName("spec.pod.annotations key", k)));
            }
            if (spec.pod.priorityClassName != null) {
                add(problems, KubeNames.dns1123Subdomain("spec.pod.priorityClassName", spec.pod.priorityClassName));
            }
            List<LocalObjectReference> pull = spec.pod.imagePullSecrets == null ? List.of() : spec.pod.imagePullSecrets;
            for (int i = 0; i < pull.size(); i++) {
                add(problems, KubeNames.dns1123Subdomain("spec.pod.imagePullSecrets[" + i + "].name",
                        pull.get(i) == null ? null : pull.get(i).getName()));
            }
        }
        if (spec.networkPolicy != null) {
            labels("spec.networkPolicy.clientPodLabels", spec.networkPolicy.clientPodLabels, problems);
            labels("spec.networkPolicy.clientNamespaceLabels", spec.networkPolicy.clientNamespaceLabels, problems);
        }
        secret("spec.database.secretRef.name", spec.database == null ? null : spec.database.secretRef, problems);
        secret("spec.auth.bearerTokenSecretRef.name", spec.auth == null ? null : spec.auth.bearerTokenSecretRef, problems);
        List<Project> projects = spec.projects == null ? List.of() : spec.projects;
        for (int i = 0; i < projects.size(); i++) {
            Project p = projects.get(i);
            if (p != null && p.source != null && p.source.configMap != null) {
                add(problems, KubeNames.dns1123Subdomain("spec.projects[" + i + "].source.configMap", p.source.configMap));
            }
        }
        if (spec.models != null) {
            claim("spec.models.embedding.pvc.claimName", spec.models.embedding, problems);
            claim("spec.models.reranker.pvc.claimName", spec.models.reranker, problems);
        }
        if (spec.vectorCache != null && spec.vectorCache.claimName != null) {
            add(problems, KubeNames.dns1123Subdomain("spec.vectorCache.claimName", spec.vectorCache.claimName));
        }
        if (spec.verification != null) {
            if (spec.verification.configMap != null) {
                add(problems, KubeNames.dns1123Subdomain("spec.verification.configMap", spec.verification.configMap));
            }
            if (spec.verification.key != null) {
                add(problems, KubeNames.configMapKey("spec.verification.key", spec.verification.key));
            }
        }
    }

    private static void labels(String field, Map<String, String> labels, List<String> problems) {
        if (labels == null) {
            return;
        }
        labels.forEach((k, v) -> {
            add(problems, KubeNames.qualifiedName(field + " key", k));
            add(problems, KubeNames.labelValue(field + "['" + KubeNames.shown(k == null ? "" : k) + "']", v));
        });
    }

    private static void secret(String field, SecretKeys ref, List<String> problems) {
        if (ref != null && ref.name != null && !ref.name.isBlank()) {
            add(problems, KubeNames.dns1123Subdomain(field, ref.name));
        }
    }

    private static void claim(String field, ModelSource source, List<String> problems) {
        if (source != null && source.pvc != null && source.pvc.claimName != null) {
            add(problems, KubeNames.dns1123Subdomain(field, source.pvc.claimName));
        }
    }

    private static void add(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }
}
