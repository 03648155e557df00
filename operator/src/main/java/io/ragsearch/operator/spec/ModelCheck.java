package io.ragsearch.operator.spec;

import io.ragsearch.contract.settings.Bounds;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.PvcModel;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** One model of spec.models: exactly one of builtin, pvc, url, each well formed and (with a lookup) present. */
final class ModelCheck {
    private static final Pattern SHA256 = Pattern.compile("[a-f0-9]{64}");

    private ModelCheck() {
    }

    static void check(String at, ModelSource m, Set<String> builtins, String namespace, ReferenceLookup lookup,
                      List<String> problems) {
        if (m == null) {
            return;
        }
        int set = (m.builtin != null ? 1 : 0) + (m.pvc != null ? 1 : 0) + (m.url != null ? 1 : 0);
        if (set != 1) {
            problems.add(at + " needs exactly one of builtin, pvc, url (got " + set + ")");
            return;
        }
        if (m.builtin != null && !builtins.contains(m.builtin)) {
            problems.add(at + ".builtin '" + m.builtin + "' is not built in; built in: " + String.join(", ", new TreeSet<>(builtins)));
        }
        claim(at + ".pvc", m.pvc, namespace, lookup, problems);
        if (m.sha256 != null && m.url == null) {
            // The digest checks the fetched archive; a built-in or a claim's model would be served without it being looked at.
            problems.add(at + ".sha256 goes with url only: nothing checks it for a builtin or pvc model");
        }
        if (m.url != null) {
            if (!m.url.startsWith("http://") && !m.url.startsWith("https://")) {
                problems.add(at + ".url must be http:// or https://, got " + m.url);
            }
            if (m.sha256 == null || !SHA256.matcher(m.sha256).matches()) {
                problems.add(at + ".sha256 (64 lower-case hex digits) is required with a url");
            }
        }
        String length = SettingsRules.maxSeqLen(at + ".maxSeqLen", m.maxSeqLen);
        if (length != null) {
            problems.add(length);
        }
    }

    /** The embedding model's own fields: a reranker's score fields are refused on it (they would be dropped unread). */
    static void embedding(String at, ModelSource m, List<String> problems) {
        if (m == null) {
            return;
        }
        if (m.scoreMapping != null || m.positiveClass != null) {
            problems.add(at + ": scoreMapping and positiveClass are for spec.models.reranker (a cross-encoder's logits)");
        }
        addIfAny(problems, SettingsRules.choice(at + ".pooling", m.pooling, Bounds.POOLINGS));
        addIfAny(problems, SettingsRules.dimension(at + ".dimension", m.dimension));
        if (m.output != null && m.output.isBlank()) {
            problems.add(at + ".output is blank: leave it out or name a model output");
        }
    }

    /** The reranker's own fields: vector fields are refused on it, score fields on a built-in (a stand-in's scores are never used). */
    static void reranker(String at, ModelSource m, List<String> problems) {
        if (m == null) {
            return;
        }
        if (m.pooling != null || m.normalize != null || m.queryPrefix != null || m.passagePrefix != null || m.output != null
                || m.dimension != null) {
            problems.add(at + ": pooling, normalize, queryPrefix, passagePrefix, output and dimension are for spec.models.embedding");
        }
        if (m.builtin != null && (m.scoreMapping != null || m.positiveClass != null)) {
            problems.add(at + ": scoreMapping and positiveClass are for a cross-encoder of your own (pvc or url); "
                    + "builtin " + m.builtin + " is a cost stand-in whose scores are never used");
        } else {
            addIfAny(problems, SettingsRules.scoreMapping(at, m.scoreMapping, m.positiveClass));
        }
    }

    private static void addIfAny(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }

    /** A claim the pods mount (a model's, or spec.vectorCache): named, present (with a lookup), a path inside it. */
    static void claim(String at, PvcModel pvc, String namespace, ReferenceLookup lookup, List<String> problems) {
        if (pvc == null) {
            return;
        }
        if (pvc.path != null && !relativeInside(pvc.path)) {
            problems.add(at + ".path must be a relative path inside the claim (no '..', not absolute), got '" + pvc.path + "'");
        }
        if (pvc.claimName == null || pvc.claimName.isBlank()) {
            problems.add(at + ".claimName is required");
        } else if (lookup != null && !lookup.claimExists(namespace, pvc.claimName)) {
            problems.add(at + ".claimName '" + pvc.claimName + "' not found in namespace " + namespace);
        }
    }

    /** The checked reranker, or null without one. */
    static CheckedSpec.Reranker reranker(ModelSource m) {
        if (m == null) {
            return null;
        }
        return new CheckedSpec.Reranker(source(m), m.url != null ? "sha256:" + m.sha256 : null);
    }

    /** A stable description of the configured reranker: a measurement is only reused for the same one. */
    static String source(ModelSource m) {
        String length = m.maxSeqLen == null ? "" : " maxSeqLen=" + m.maxSeqLen;
        if (m.builtin != null) {
            return "builtin:" + m.builtin + length;
        }
        if (m.pvc != null) {
            return "pvc:" + m.pvc.claimName + "/" + (m.pvc.path == null ? "" : m.pvc.path) + length;
        }
        return "url:" + m.url + " sha256:" + m.sha256 + length;
    }

    /** A volume subPath the API server accepts: relative, and no '..' segment. */
    private static boolean relativeInside(String path) {
        if (path.startsWith("/") || path.contains("\\")) {
            return false;
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
