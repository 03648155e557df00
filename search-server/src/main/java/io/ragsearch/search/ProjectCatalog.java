package io.ragsearch.search;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/** The projects this server serves, by name. A project can be replaced whole (a rebuilt index). */
public final class ProjectCatalog {

    private final Map<String, Project> projects = new ConcurrentSkipListMap<>();

    /**
     * Adds or replaces a project. A replaced index is not closed: searches that started on it
     * finish on it, and the garbage collector frees the in-memory index after them.
     */
    public void put(Project project) {
        projects.put(project.name(), project);
    }

    public void remove(String name) {
        projects.remove(name);
    }

    public boolean contains(String name) {
        return projects.containsKey(name);
    }

    public Project get(String name) {
        return get(name, ProjectScope.ALL);
    }

    /**
     * The project if it exists and the scope allows it; otherwise the one unknown-project answer,
     * naming only the projects in scope (a project outside it is answered as one that does not exist).
     */
    public Project get(String name, ProjectScope scope) {
        Project p = projects.get(name);
        if (p == null || !scope.allows(name)) {
            List<String> visible = projects.keySet().stream().filter(scope::allows).toList();
            throw new NotFoundException("unknown project " + MessageText.quoted(name) + "; projects: " + MessageText.listed(visible));
        }
        return p;
    }

    public Collection<Project> all() {
        return projects.values();
    }

    /** The projects in scope, in name order. */
    public List<Project> all(ProjectScope scope) {
        return projects.values().stream().filter(p -> scope.allows(p.name())).toList();
    }

    public boolean isEmpty() {
        return projects.isEmpty();
    }

}
