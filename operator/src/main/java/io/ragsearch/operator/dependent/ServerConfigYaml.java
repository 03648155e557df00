package io.ragsearch.operator.dependent;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.operator.model.Gate;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.reconcile.CheckedSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The search server's configuration file, written from the spec. Listener, concurrency and
 * secrets stay out of it: they come from the environment the Deployment sets.
 */
public final class ServerConfigYaml {

    /** ConfigMap volumes hold each key as a top-level link; deeper globs would also see the ..data copies. */
    static final List<String> CONFIGMAP_INCLUDE = List.of("*.md", "*.markdown", "*.txt");

    private ServerConfigYaml() {
    }

    public static String render(CheckedSpec checked) {
        RagSearchSpec spec = checked.spec();
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> rerank = new LinkedHashMap<>();
        rerank.put("intraOpThreads", checked.intraOpThreads());
        if (spec.rerank != null && spec.rerank.queueTimeoutMillis != null) {
            rerank.put("queueTimeoutMillis", spec.rerank.queueTimeoutMillis);
        }
        root.put("rerank", rerank);
        if (spec.models != null && spec.models.embedding != null) {
            root.put("models", Map.of("embedding", modelRef(spec.models.embedding, "embedding", null)));
        }
        List<Map<String, Object>> projects = new ArrayList<>();
        for (Project p : spec.projects) {
            Map<String, Object> project = new LinkedHashMap<>();
            project.put("name", p.name);
            if (p.description != null) {
                project.put("description", p.description);
            }
            if (p.language != null) {
                project.put("language", p.language);
            }
            if (p.retrieval != null) {
                project.put("retrieval", p.retrieval);
            }
            if (Boolean.TRUE.equals(p.source.database)) {
                project.put("source", Map.of("database", true));
            } else {
                Map<String, Object> source = new LinkedHashMap<>();
                source.put("directory", Names.CORPUS_DIR + "/" + p.name);
                source.put("include", CONFIGMAP_INCLUDE);
                project.put("source", source);
            }
            Double threshold = threshold(p.gate, spec.gate);
            if (threshold != null) {
                project.put("gate", Map.of("threshold", threshold));
            }
            if (spec.models != null && spec.models.reranker != null) {
                project.put("reranker", modelRef(spec.models.reranker, "reranker", spec.models.reranker.maxSeqLen));
            }
            projects.add(project);
        }
        root.put("projects", projects);
        return Serialization.asYaml(root);
    }

    /** Built-in by name, otherwise the directory below RAGSEARCH_MODEL_DIR that the pod mounts or fetches into. */
    private static Map<String, Object> modelRef(ModelSource m, String role, Integer maxSeqLen) {
        Map<String, Object> ref = new LinkedHashMap<>();
        if (m.builtin != null) {
            ref.put("builtin", m.builtin);
        } else {
            ref.put("path", role);
        }
        if (maxSeqLen != null) {
            ref.put("maxSeqLen", maxSeqLen);
        }
        return ref;
    }

    private static Double threshold(Gate own, Gate shared) {
        if (own != null && own.threshold != null) {
            return own.threshold;
        }
        return shared == null ? null : shared.threshold;
    }
}
