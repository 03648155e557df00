package io.ragsearch.server;

import io.ragsearch.contract.Environment;
import io.ragsearch.admin.AdminSettings;
import io.ragsearch.calibrate.CalibrationSettings;
import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ConfigOverrides;
import io.ragsearch.config.ConfigValidator;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.BuiltinModelHome;
import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.EmbeddingSettings;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.VectorCache;
import io.ragsearch.index.Language;
import io.ragsearch.mcp.ListenerSettings;
import io.ragsearch.mcp.ToolPoolSettings;
import io.ragsearch.mcp.TransportSecurityPolicy;
import io.ragsearch.rerank.RerankSettings;
import io.ragsearch.rerank.RerankerModel;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.RetrievalMode;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.store.DatabaseSettings;
import io.ragsearch.verification.BaselinePolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Turns the configuration file into every component's settings, once: the file is validated, and
 * each absent field takes the default of the component that owns it. The environment gives the
 * bearer token (RAGSEARCH_AUTH_TOKEN) and the folder relative model paths resolve against
 * (RAGSEARCH_MODEL_DIR); the listener and database overrides are applied before
 * ({@link ConfigOverrides#withEnvironment}).
 */
public final class SettingsResolver {

    private SettingsResolver() {
    }

    public static AppSettings resolve(ServerSettings config, Map<String, String> env) {
        List<String> problems = new ArrayList<>(ConfigValidator.problems(config));
        ServerSettings.Server s = config.server() != null ? config.server()
                : new ServerSettings.Server(null, null, null, null, null, null, null, null, null);
        int mcpPort = or(s.mcpPort(), ListenerSettings.DEFAULT_PORT);
        int adminPort = or(s.adminPort(), AdminSettings.DEFAULT_PORT);
        if (problems.isEmpty() && mcpPort != 0 && mcpPort == adminPort) {
            problems.add("server.mcpPort and server.adminPort must differ (both " + mcpPort + ")");
        }
        if (!problems.isEmpty()) {
            throw new ConfigException("invalid configuration:\n  - " + String.join("\n  - ", problems));
        }
        String bind = or(s.bindAddress(), ListenerSettings.DEFAULT_BIND);
        ToolPoolSettings tools = new ToolPoolSettings(or(s.toolThreads(), ToolPoolSettings.defaultThreads()),
                or(s.toolQueue(), ToolPoolSettings.DEFAULT_QUEUE));
        ListenerSettings mcp = new ListenerSettings(bind, mcpPort,
                or(s.maxInFlightRequests(), ListenerSettings.defaultMaxInFlight(tools)), bearerToken(env));
        SearchLimits d = SearchLimits.DEFAULTS;
        SearchLimits limits = new SearchLimits(or(s.maxQueryChars(), d.maxQueryChars()), d.defaultTopK(), d.maxTopK(), d.legDepth(),
                d.candidates(), d.maxHitChars());
        AppSettings.Serving serving = new AppSettings.Serving(mcp,
                TransportSecurityPolicy.forBind(bind, s.allowedHosts(), s.allowedOrigins()), tools,
                new AdminSettings(bind, adminPort), limits, verifyChecks(env), verifyBaselines(env));

        String modelDir = env.get(Environment.MODEL_DIR);
        RerankSettings rerank = rerank(config);
        SessionSettings.Arena arena = rerank.session().arena();
        CalibrationSettings calibration = calibration(config);
        AppSettings.Models models = new AppSettings.Models(embedding(config, modelDir, BuiltinModelHome.from(env)),
                new SessionSettings(Runtime.getRuntime().availableProcessors(), arena), rerank, calibration, vectorCache(env));

        List<ProjectSettings> projects = ConfigOverrides.projects(config).stream().map(p -> project(p, modelDir)).toList();
        return new AppSettings(serving, models, projects, database(config));
    }

    /**
     * Where passage vectors are kept between starts: RAGSEARCH_VECTOR_CACHE ("off": nowhere), else
     * the user's cache directory (XDG_CACHE_HOME or ~/.cache), else none.
     */
    static Optional<VectorCache> vectorCache(Map<String, String> env) {
        String configured = env.get(Environment.VECTOR_CACHE);
        if (configured != null && !configured.isBlank()) {
            return configured.strip().equalsIgnoreCase("off") ? Optional.empty()
                    : Optional.of(new VectorCache(Path.of(configured.strip())));
        }
        String xdg = env.get("XDG_CACHE_HOME");
        String home = env.get("HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : home != null && !home.isBlank() ? Path.of(home, ".cache") : null;
        return Optional.ofNullable(base).map(b -> new VectorCache(b.resolve("ragsearch").resolve("vectors")));
    }

    /** The embedding model a configuration without a models section gets. */
    public static EmbeddingModel defaultEmbedding(Map<String, String> env) {
        return BuiltinModelHome.from(env).multilingual().map(dir -> EmbeddingModel.multilingual(dir, EmbeddingSettings.E5))
                .orElse(EmbeddingModel.MINILM);
    }

    /** Only the embedding model, for commands (ingest) that read nothing else from the file. */
    public static EmbeddingModel embedding(ServerSettings config, Map<String, String> env) {
        ConfigValidator.validateModels(config);
        return embedding(config, env.get(Environment.MODEL_DIR), BuiltinModelHome.from(env));
    }

    /** Rerank resources only (calibrate reads nothing else from the file). */
    public static RerankSettings rerank(ServerSettings config) {
        ServerSettings.Rerank r = rerankSection(config);
        SessionSettings.Arena arena = r.arena() == null ? SessionSettings.DEFAULT_ARENA : SessionSettings.Arena.parse(r.arena());
        return new RerankSettings(or(r.concurrency(), RerankSettings.DEFAULT_CONCURRENCY),
                or(r.queueTimeoutMillis(), RerankSettings.DEFAULT_QUEUE_TIMEOUT_MILLIS),
                new SessionSettings(or(r.intraOpThreads(), RerankSettings.DEFAULT_INTRA_OP_THREADS), arena));
    }

    /** The startup calibration's levels as configured (calibrate's default levels too). */
    public static CalibrationSettings calibration(ServerSettings config) {
        ServerSettings.Rerank r = rerankSection(config);
        return new CalibrationSettings(or(r.calibrate(), CalibrationSettings.DEFAULTS.enabled()),
                r.calibrationLevels() == null || r.calibrationLevels().isEmpty() ? CalibrationSettings.DEFAULTS.levels()
                        : r.calibrationLevels());
    }

    private static ServerSettings.Rerank rerankSection(ServerSettings config) {
        return config.rerank() != null ? config.rerank() : new ServerSettings.Rerank(null, null, null, null, null, null);
    }

    /** A reranker as a project names it; a relative path resolves against RAGSEARCH_MODEL_DIR. */
    public static RerankerModel reranker(ServerSettings.RerankerRef ref, Map<String, String> env) {
        return reranker(ref, env.get(Environment.MODEL_DIR));
    }

    /**
     * The configured embedding model; with none configured, the built-in multilingual model where
     * it was fetched (it reads Korean and English), else MiniLM (English only: Korean projects then
     * run lexical, and startup says why).
     */
    private static EmbeddingModel embedding(ServerSettings config, String modelDir, BuiltinModelHome home) {
        ServerSettings.ModelRef m = config.models() == null ? null : config.models().embedding();
        if (m == null) {
            return home.multilingual().map(dir -> EmbeddingModel.multilingual(dir, EmbeddingSettings.E5))
                    .orElse(EmbeddingModel.MINILM);
        }
        boolean e5 = ModelFiles.BUILTIN_E5.equals(m.builtin());
        EmbeddingSettings settings = EmbeddingSettings.of(e5 ? EmbeddingSettings.E5 : EmbeddingSettings.DEFAULTS, m.pooling(),
                m.normalize(), m.maxSeqLen(), m.queryPrefix(), m.passagePrefix(), m.output());
        if (e5) {
            Path dir = home.multilingual().orElseThrow(() -> new ConfigException("models.embedding.builtin "
                    + ModelFiles.BUILTIN_E5 + " is not on this machine (looked in " + home.roots()
                    + "): fetch it with scripts/model/fetch-e5.sh, or set RAGSEARCH_BUILTIN_MODELS"));
            return EmbeddingModel.multilingual(dir, settings);
        }
        return m.builtin() != null ? new EmbeddingModel(m.builtin(), null, settings)
                : new EmbeddingModel(null, underModelDir(m.path(), modelDir), settings);
    }

    private static ProjectSettings project(ServerSettings.Project p, String modelDir) {
        ProjectSettings d = ProjectSettings.defaults(p.name());
        Optional<ProjectSettings.DirectorySource> directory = ConfigOverrides.fromDatabase(p) ? Optional.empty()
                : Optional.of(new ProjectSettings.DirectorySource(Path.of(p.source().directory()),
                        p.source().include() == null || p.source().include().isEmpty()
                                ? ProjectSettings.DirectorySource.DEFAULT_INCLUDE : p.source().include(),
                        or(p.includeAddenda(), false)));
        String language = p.language() == null ? "auto" : p.language().toLowerCase(Locale.ROOT);
        Double threshold = p.gate() == null ? null : p.gate().threshold();
        ProjectSettings.Retrieval retrieval = new ProjectSettings.Retrieval(
                language.equals("auto") ? d.retrieval().language() : Optional.of(Language.parse(language)),
                p.retrieval() == null ? d.retrieval().mode() : RetrievalMode.parse(p.retrieval()),
                threshold == null ? d.retrieval().gateThreshold() : OptionalDouble.of(threshold));
        return new ProjectSettings(p.name(), or(p.description(), d.description()), directory, retrieval,
                Optional.ofNullable(p.reranker()).map(ref -> reranker(ref, modelDir)));
    }

    private static RerankerModel reranker(ServerSettings.RerankerRef ref, String modelDir) {
        return ref.builtin() != null ? RerankerModel.builtin(ref.builtin(), ref.maxSeqLen())
                : RerankerModel.directory(underModelDir(ref.path(), modelDir), ref.maxSeqLen());
    }

    private static Optional<DatabaseSettings> database(ServerSettings config) {
        if (!ConfigOverrides.databaseConfigured(config)) {
            return Optional.empty();
        }
        ServerSettings.Database ref = config.database();
        return Optional.of(new DatabaseSettings(ref.url(), ref.user(), ref.password(),
                ref.pollSeconds() == null ? DatabaseSettings.DEFAULT_POLL : Duration.ofSeconds(ref.pollSeconds())));
    }

    /** A model directory relative to RAGSEARCH_MODEL_DIR when that is set (the operator's init container fills it). */
    private static Path underModelDir(String path, String modelDir) {
        Path p = Path.of(path);
        return !p.isAbsolute() && modelDir != null && !modelDir.isBlank() ? Path.of(modelDir).resolve(p) : p;
    }

    /** The checks file of /verification: a path, read at each run (a blank variable is no file). */
    static Optional<Path> verifyChecks(Map<String, String> env) {
        String path = env.get(Environment.VERIFY_CHECKS);
        return path == null || path.isBlank() ? Optional.empty() : Optional.of(Path.of(path.strip()));
    }

    /** The baselines /verification may call (RAGSEARCH_VERIFY_BASELINES); unset or blank: none. */
    static BaselinePolicy verifyBaselines(Map<String, String> env) {
        try {
            return BaselinePolicy.parse(env.get(Environment.VERIFY_BASELINES));
        } catch (IllegalArgumentException e) {
            // An entry with user:password@ is refused; the message must not carry the password into the log.
            throw new ConfigException(Environment.VERIFY_BASELINES + ": " + e.getMessage().replaceAll("[^\\s'/@,]*:[^\\s'@,]*@", "***@"));
        }
    }

    /**
     * The bearer token, or null when auth is off. A variable that is set but blank is refused: it
     * is a Secret with an empty key, and serving without auth then would be a silent downgrade.
     */
    static String bearerToken(Map<String, String> env) {
        String token = env.get(Environment.AUTH_TOKEN);
        if (token == null) {
            return null;
        }
        if (token.isBlank()) {
            throw new ConfigException("RAGSEARCH_AUTH_TOKEN is set but blank: set a token, or unset the "
                    + "variable to serve without bearer-token auth");
        }
        String t = token.strip();
        // A bearer token is RFC 6750's token68; one character, or a line break inside, is a mistake, not a secret.
        if (t.length() < MIN_TOKEN_CHARS || !TOKEN68.matcher(t).matches()) {
            throw new ConfigException("RAGSEARCH_AUTH_TOKEN must be at least " + MIN_TOKEN_CHARS + " characters of letters, digits and "
                    + "-._~+/ (then '=' padding), with no spaces or line breaks inside; got " + t.length() + " characters"
                    + (TOKEN68.matcher(t).matches() ? "" : " including others"));
        }
        return t;
    }

    static final int MIN_TOKEN_CHARS = 8;
    private static final java.util.regex.Pattern TOKEN68 = java.util.regex.Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
