package io.ragsearch.config;

import io.ragsearch.contract.Environment;
import io.ragsearch.contract.settings.ServerSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Everything the server takes from its environment, read once, here and nowhere else: the
 * commands hand in {@code System.getenv()}, tests their own map, and every other class receives
 * these resolved values. Bad values are refused with the variable's name.
 *
 * @param configFile         RAGSEARCH_CONFIG
 * @param bindAddress        RAGSEARCH_BIND_ADDRESS, replaces server.bindAddress (null: the file's)
 * @param mcpPort            RAGSEARCH_MCP_PORT, replaces server.mcpPort
 * @param adminPort          RAGSEARCH_ADMIN_PORT, replaces server.adminPort
 * @param rerankConcurrency  RAGSEARCH_RERANK_CONCURRENCY, replaces rerank.concurrency (the operator's decision)
 * @param databaseUrl        RAGSEARCH_DB_URL, replaces database.url
 * @param databaseUser       RAGSEARCH_DB_USER, replaces database.user
 * @param databasePassword   RAGSEARCH_DB_PASSWORD, replaces database.password
 * @param bearerToken        RAGSEARCH_AUTH_TOKEN, checked and stripped (null: no auth)
 * @param modelDir           RAGSEARCH_MODEL_DIR, what relative model paths resolve against (null: the working directory)
 * @param vectorCache        where passage vectors are kept between starts (RAGSEARCH_VECTOR_CACHE, "off": nowhere;
 *                           else XDG_CACHE_HOME or ~/.cache, then ragsearch/vectors)
 * @param builtinModelRoots  where built-in models are looked for, in order: RAGSEARCH_BUILTIN_MODELS, the user's
 *                           cache (ragsearch/models), the image's folder
 * @param verifyChecks       RAGSEARCH_VERIFY_CHECKS, the checks file of /verification
 * @param verifyBaselines    RAGSEARCH_VERIFY_BASELINES as written (the verification package parses it)
 * @param rssMemoryProbe     RAGSEARCH_MEMORY_PROBE=rss: measure process RSS, not the cgroup
 * @param otel               the OpenTelemetry variables (OTEL_*) as given: they configure trace export (docs/telemetry.md)
 * @param memoryLimitFile    RAGSEARCH_MEMORY_LIMIT_FILE: where the live memory limit is read (empty: the own cgroup's)
 * @param cpuLimitFile       RAGSEARCH_CPU_LIMIT_FILE: where the live CPU limit is read, cpu.max's format (empty: the own cgroup's)
 */
public record ServerEnvironment(Optional<Path> configFile, String bindAddress, Integer mcpPort, Integer adminPort,
                                Integer rerankConcurrency, String databaseUrl, String databaseUser, String databasePassword,
                                String bearerToken, String modelDir, Optional<Path> vectorCache, List<Path> builtinModelRoots,
                                Optional<Path> verifyChecks, String verifyBaselines, boolean rssMemoryProbe,
                                Map<String, String> otel, Optional<Path> memoryLimitFile, Optional<Path> cpuLimitFile) {

    /** Where the server image carries the built-in models fetched at build time. */
    public static final Path IMAGE_MODELS = Path.of("/opt/ragsearch/models");

    static final int MIN_TOKEN_CHARS = 8;
    private static final Pattern TOKEN68 = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

    public ServerEnvironment {
        builtinModelRoots = List.copyOf(builtinModelRoots);
        otel = Map.copyOf(otel);
    }

    /** Reads the variables this server knows from {@code env} (a process's, or a test's). */
    public static ServerEnvironment read(Map<String, String> env) {
        return new ServerEnvironment(path(env.get(Environment.CONFIG)), env.get(Environment.BIND_ADDRESS),
                whole(env, Environment.MCP_PORT), whole(env, Environment.ADMIN_PORT), whole(env, Environment.RERANK_CONCURRENCY),
                given(env.get(Environment.DB_URL)), given(env.get(Environment.DB_USER)), given(env.get(Environment.DB_PASSWORD)),
                bearerToken(env.get(Environment.AUTH_TOKEN)), env.get(Environment.MODEL_DIR), vectorCache(env),
                builtinModelRoots(env), path(env.get(Environment.VERIFY_CHECKS)), env.get(Environment.VERIFY_BASELINES),
                "rss".equalsIgnoreCase(env.get(Environment.MEMORY_PROBE)), otel(env), path(env.get(Environment.MEMORY_LIMIT_FILE)),
                path(env.get(Environment.CPU_LIMIT_FILE)));
    }

    private static Map<String, String> otel(Map<String, String> env) {
        Map<String, String> otel = new java.util.TreeMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value != null) {
                otel.put(name, value);
            }
        });
        return otel;
    }

    /** The command line's listener flags, which win over the environment's (null: not given). */
    public ServerEnvironment withListener(String bind, Integer mcp, Integer admin) {
        return new ServerEnvironment(configFile, bind != null ? bind : bindAddress, mcp != null ? mcp : mcpPort,
                admin != null ? admin : adminPort, rerankConcurrency, databaseUrl, databaseUser, databasePassword, bearerToken,
                modelDir, vectorCache, builtinModelRoots, verifyChecks, verifyBaselines, rssMemoryProbe, otel, memoryLimitFile,
                cpuLimitFile);
    }

    /** The configuration as this environment changes it: a value given here replaces the file's, an absent one leaves it. */
    public ServerSettings applyTo(ServerSettings file) {
        ServerSettings.Server s = Objects.requireNonNullElse(file.server(), ServerSettings.Server.EMPTY);
        ServerSettings.Server server = bindAddress == null && mcpPort == null && adminPort == null ? file.server()
                : s.withBindAddress(or(bindAddress, s.bindAddress())).withMcpPort(or(mcpPort, s.mcpPort()))
                        .withAdminPort(or(adminPort, s.adminPort()));
        ServerSettings.Rerank rerank = rerankConcurrency == null ? file.rerank()
                : Objects.requireNonNullElse(file.rerank(), ServerSettings.Rerank.EMPTY).withConcurrency(rerankConcurrency);
        ServerSettings.Database d = Objects.requireNonNullElse(file.database(), ServerSettings.Database.EMPTY);
        ServerSettings.Database database = databaseUrl == null && databaseUser == null && databasePassword == null ? file.database()
                : d.withUrl(or(databaseUrl, d.url())).withUser(or(databaseUser, d.user())).withPassword(or(databasePassword, d.password()));
        return file.withServer(server).withRerank(rerank).withDatabase(database);
    }

    private static Optional<Path> path(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(Path.of(value.strip()));
    }

    /** A blank variable is an unset one (a Secret key left empty must not blank the file's value). */
    private static String given(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static Integer whole(Map<String, String> env, String name) {
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

    /**
     * The bearer token, or null when auth is off. A variable that is set but blank is refused: it
     * is a Secret with an empty key, and serving without auth then would be a silent downgrade.
     */
    private static String bearerToken(String token) {
        if (token == null) {
            return null;
        }
        if (token.isBlank()) {
            throw new ConfigException(Environment.AUTH_TOKEN + " is set but blank: set a token, or unset the "
                    + "variable to serve without bearer-token auth");
        }
        String t = token.strip();
        // A bearer token is RFC 6750's token68; one character, or a line break inside, is a mistake, not a secret.
        if (t.length() < MIN_TOKEN_CHARS || !TOKEN68.matcher(t).matches()) {
            throw new ConfigException(Environment.AUTH_TOKEN + " must be at least " + MIN_TOKEN_CHARS + " characters of letters, digits and "
                    + "-._~+/ (then '=' padding), with no spaces or line breaks inside; got " + t.length() + " characters"
                    + (TOKEN68.matcher(t).matches() ? "" : " including others"));
        }
        return t;
    }

    private static Optional<Path> vectorCache(Map<String, String> env) {
        String configured = env.get(Environment.VECTOR_CACHE);
        if (configured != null && !configured.isBlank()) {
            return configured.strip().equalsIgnoreCase("off") ? Optional.empty() : Optional.of(Path.of(configured.strip()));
        }
        return userCache(env).map(c -> c.resolve("ragsearch").resolve("vectors"));
    }

    private static List<Path> builtinModelRoots(Map<String, String> env) {
        List<Path> roots = new ArrayList<>();
        path(env.get(Environment.BUILTIN_MODELS)).ifPresent(roots::add);
        userCache(env).ifPresent(c -> roots.add(c.resolve("ragsearch").resolve("models")));
        roots.add(IMAGE_MODELS);
        return roots;
    }

    /** XDG_CACHE_HOME, else ~/.cache, else none. */
    private static Optional<Path> userCache(Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        String home = env.get("HOME");
        return xdg != null && !xdg.isBlank() ? Optional.of(Path.of(xdg))
                : home != null && !home.isBlank() ? Optional.of(Path.of(home, ".cache")) : Optional.empty();
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
