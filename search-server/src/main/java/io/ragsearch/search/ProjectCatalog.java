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
        Project p = projects.get(name);
        if (p == null) {
            throw new NotFoundException("unknown project " + MessageText.quoted(name) + "; projects: " + MessageText.listed(List.copyOf(projects.keySet())));
        }
        return p;
    }

    public Collection<Project> all() {
        return projects.values();
    }

    public boolean isEmpty() {
        return projects.isEmpty();
    }

}
