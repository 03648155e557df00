package io.ragsearch.config;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.Environment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the command line and the environment change in a configuration file: listener flags,
 * --db, --project, and RAGSEARCH_BIND_ADDRESS, _MCP_PORT, _ADMIN_PORT, _RERANK_CONCURRENCY,
 * _DB_URL, _DB_USER, _DB_PASSWORD. A given value replaces the file's; an absent one leaves it.
 */
public final class ConfigOverrides {

    private ConfigOverrides() {
    }

    public static ServerSettings withEnvironment(ServerSettings c, Map<String, String> env) {
        ServerSettings listener = withListener(c, env.get(Environment.BIND_ADDRESS), intFromEnv(env, Environment.MCP_PORT),
                intFromEnv(env, Environment.ADMIN_PORT));
        ServerSettings.Rerank r = rerank(c);
        Integer concurrency = intFromEnv(env, Environment.RERANK_CONCURRENCY);
        ServerSettings.Rerank rerank = concurrency == null ? c.rerank() : new ServerSettings.Rerank(concurrency, r.queueTimeoutMillis(),
                r.intraOpThreads(), r.arena(), r.calibrate(), r.calibrationLevels());
        ServerSettings.Database d = database(c);
        ServerSettings.Database database = new ServerSettings.Database(pick(env.get(Environment.DB_URL), d.url()),
                pick(env.get(Environment.DB_USER), d.user()), pick(env.get(Environment.DB_PASSWORD), d.password()), d.pollSeconds());
        return new ServerSettings(listener.server(), c.models(), rerank, database, c.projects());
    }

    public static ServerSettings withListener(ServerSettings c, String bind, Integer mcpPort, Integer adminPort) {
        ServerSettings.Server s = c.server() != null ? c.server()
                : new ServerSettings.Server(null, null, null, null, null, null, null, null, null);
        ServerSettings.Server server = new ServerSettings.Server(bind != null ? bind : s.bindAddress(),
                mcpPort != null ? mcpPort : s.mcpPort(), adminPort != null ? adminPort : s.adminPort(), s.toolThreads(),
                s.toolQueue(), s.maxInFlightRequests(), s.maxQueryChars(), s.allowedHosts(), s.allowedOrigins());
        return new ServerSettings(server, c.models(), c.rerank(), c.database(), c.projects());
    }

    public static ServerSettings withDatabase(ServerSettings c, String url) {
        if (url == null) {
            return c;
        }
        ServerSettings.Database d = database(c);
        return new ServerSettings(c.server(), c.models(), c.rerank(),
                new ServerSettings.Database(url, d.user(), d.password(), d.pollSeconds()), c.projects());
    }

    public static ServerSettings withProjects(ServerSettings c, List<ServerSettings.Project> more) {
        List<ServerSettings.Project> all = new ArrayList<>(projects(c));
        all.addAll(more);
        return new ServerSettings(c.server(), c.models(), c.rerank(), c.database(), all);
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

    private static ServerSettings.Rerank rerank(ServerSettings c) {
        return c.rerank() != null ? c.rerank() : new ServerSettings.Rerank(null, null, null, null, null, null);
    }

    private static ServerSettings.Database database(ServerSettings c) {
        return c.database() != null ? c.database() : new ServerSettings.Database(null, null, null, null);
    }

    private static String pick(String override, String value) {
        return override != null && !override.isBlank() ? override : value;
    }

    private static Integer intFromEnv(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new ConfigException(name + " must be a whole number, got '" + value + "'");
        }
    }
}
