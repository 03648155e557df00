package io.ragsearch.operator.spec;

import io.ragsearch.contract.settings.Bounds;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.RagSearchSpec;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** spec.projects: names, sources and gates by the contract's rules, and each source present. */
final class ProjectCheck {
    /**
     * Each project is a mounted ConfigMap volume; the Deployment must stay far below the API
     * server's object size limit. The CRD's maxItems says the same.
     */
    static final int MAX_PROJECTS = io.ragsearch.operator.model.SchemaBounds.PROJECTS;

    private ProjectCheck() {
    }

    static void check(RagSearchSpec spec, String namespace, ReferenceLookup lookup, List<String> problems) {
        if (spec.projects == null || spec.projects.isEmpty()) {
            problems.add("spec.projects needs at least one project");
            return;
        }
        if (spec.projects.size() > MAX_PROJECTS) {
            problems.add("spec.projects has " + spec.projects.size() + " projects; at most " + MAX_PROJECTS
                    + " fit one Deployment (each is a mounted volume): split them over several RagSearch resources");
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < spec.projects.size(); i++) {
            Project p = spec.projects.get(i);
            String at = "spec.projects[" + i + "]";
            if (p == null || p.name == null || p.name.isBlank()) {
                problems.add(at + ".name is required");
                continue;
            }
            add(problems, SettingsRules.projectName(at + ".name", p.name));
            if (!seen.add(p.name)) {
                problems.add("duplicate project name '" + p.name + "'");
            }
            add(problems, SettingsRules.choice(at + ".language", p.language, Bounds.LANGUAGES));
            add(problems, SettingsRules.choice(at + ".retrieval", p.retrieval, Bounds.RETRIEVAL_MODES));
            boolean fromDatabase = p.source != null && Boolean.TRUE.equals(p.source.database);
            boolean fromConfigMap = p.source != null && p.source.configMap != null && !p.source.configMap.isBlank();
            if (fromDatabase == fromConfigMap) {
                problems.add(at + ".source needs exactly one of database: true or configMap");
            }
            if (fromDatabase && spec.database == null) {
                problems.add(at + " reads from the database, but spec.database is not set");
            }
            if (fromConfigMap && lookup != null && !lookup.configMapExists(namespace, p.source.configMap)) {
                problems.add(at + ".source.configMap '" + p.source.configMap + "' not found in namespace " + namespace);
            }
            if (p.gate != null) {
                add(problems, SettingsRules.gateThreshold(at + ".gate.threshold", p.gate.threshold));
            }
        }
    }

    private static void add(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }
}
