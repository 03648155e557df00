package io.ragsearch.config;

import io.ragsearch.contract.settings.ServerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the command line changes in a configuration file: --db and --project. A given value
 * replaces the file's; an absent one leaves it. (The environment's overrides are
 * {@link ServerEnvironment#applyTo}; the listener flags beat the environment's through
 * {@link ServerEnvironment#withListener}.)
 */
public final class ConfigOverrides {

    private ConfigOverrides() {
    }

    public static ServerSettings withDatabase(ServerSettings c, String url) {
        if (url == null) {
            return c;
        }
        return c.withDatabase(Objects.requireNonNullElse(c.database(), ServerSettings.Database.EMPTY).withUrl(url));
    }

    public static ServerSettings withProjects(ServerSettings c, List<ServerSettings.Project> more) {
        List<ServerSettings.Project> all = new ArrayList<>(projects(c));
        all.addAll(more);
        return c.withProjects(all);
    }

    /** The configured projects; none when the file has no projects section. */
    public static List<ServerSettings.Project> projects(ServerSettings c) {
        return c.projects() == null ? List.of() : c.projects();
    }

    /** Whether a database is named (a URL that is not blank). */
    public static boolean databaseConfigured(ServerSettings c) {
        return c.database() != null && c.database().url() != null && !c.database().url().isBlank();
    }

    /** Whether a project's documents come from the database rather than a directory. */
    public static boolean fromDatabase(ServerSettings.Project p) {
        return p.source() != null && Boolean.TRUE.equals(p.source().database());
    }
}
