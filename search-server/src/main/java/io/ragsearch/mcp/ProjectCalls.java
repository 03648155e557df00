package io.ragsearch.mcp;

import io.ragsearch.auth.Caller;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.search.Project;

/**
 * Counts the tool calls that reached a project, by project and caller. Only projects that exist
 * and are the caller's get here, and subjects are the identities the access rules admit: the
 * label sets stay bounded.
 */
final class ProjectCalls {

    private final Metrics metrics;

    ProjectCalls(Metrics metrics) {
        this.metrics = metrics;
    }

    /** Counts the call and hands the project on. */
    Project counted(Project project, Caller caller) {
        metrics.counter("ragsearch_project_calls_total", "Tool calls that reached a project, by project and caller (the token's subject)",
                "project=\"" + Metrics.labelValue(project.name()) + "\",subject=\"" + Metrics.labelValue(caller.subject()) + "\"").inc();
        return project;
    }
}
