package io.ragsearch.server;

import io.ragsearch.contract.Environment;
import io.ragsearch.admin.AdminSettings;
import io.ragsearch.calibrate.CalibrationSettings;
import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ConfigOverrides;
import io.ragsearch.config.ConfigValidator;
import io.ragsearch.config.ServerEnvironment;
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
import io.ragsearch.rerank.RerankerFactory;
import io.ragsearch.rerank.RerankerModel;
import io.ragsearch.rerank.ScoreMapping;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.RetrievalMode;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.store.DatabaseSettings;
import io.ragsearch.verification.BaselinePolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Turns the configuration file and the environment into every component's settings, once: the
 * environment's overrides are applied ({@link ServerEnvironment#applyTo}), the result is
 * validated, and each absent field takes the default of the component that owns it. The
 * environment also gives the bearer token, the folder relative model paths resolve against, the
 * vector cache and the verification's checks and baselines.
 */
public final class SettingsResolver {

    private SettingsResolver() {
    }

    public static AppSettings resolve(ServerSettings file, ServerEnvironment env) {
        ServerSettings config = env.applyTo(file);
        ConfigValidator.validate(config);
        ServerSettings.Server s = Objects.requireNonNullElse(config.server(), ServerSettings.Server.EMPTY);
        int mcpPort = or(s.mcpPort(), ListenerSettings.DEFAULT_PORT);
        int adminPort = or(s.adminPort(), AdminSettings.DEFAULT_PORT);
        String bind = or(s.bindAddress(), ListenerSettings.DEFAULT_BIND);
        ToolPoolSettings tools = new ToolPoolSettings(or(s.toolThreads(), ToolPoolSettings.defaultThreads()),
                or(s.toolQueue(), ToolPoolSettings.DEFAULT_QUEUE));
        ListenerSettings mcp = new ListenerSettings(bind, mcpPort,
                or(s.maxInFlightRequests(), ListenerSettings.defaultMaxInFlight(tools)), env.bearerToken());
        SearchLimits d = SearchLimits.DEFAULTS;
        SearchLimits limits = new SearchLimits(or(s.maxQueryChars(), d.maxQueryChars()), d.defaultTopK(), d.maxTopK(), d.legDepth(),
                d.candidates(), d.maxHitChars());
        AppSettings.Serving serving = new AppSettings.Serving(mcp,
                TransportSecurityPolicy.forBind(bind, s.allowedHosts(), s.allowedOrigins()), tools,
                new AdminSettings(bind, adminPort), limits, env.verifyChecks(), verifyBaselines(env), AuthResolver.jwt(config.auth(), env),
                env.otel());

        String modelDir = env.modelDir();
        RerankSettings rerank = rerank(config);
        SessionSettings.Arena arena = rerank.session().arena();
        CalibrationSettings calibration = calibration(config, env);
        AppSettings.Models models = new AppSettings.Models(embedding(config, modelDir, builtinModels(env)),
                new SessionSettings(Runtime.getRuntime().availableProcessors(), arena), rerank, calibration,
                env.vectorCache().map(VectorCache::new));

        List<ProjectSettings> projects = ConfigOverrides.projects(config).stream().map(p -> project(p, modelDir, builtinModels(env))).toList();
        return new AppSettings(serving, models, projects, database(config));
    }

    /** The embedding model a configuration without a models section gets. */
    public static EmbeddingModel defaultEmbedding(ServerEnvironment env) {
        return builtinModels(env).multilingual().map(dir -> EmbeddingModel.multilingual(dir, EmbeddingSettings.E5))
                .orElse(EmbeddingModel.MINILM);
    }

    /** Only the embedding model, for commands (ingest) that read nothing else from the file. */
    public static EmbeddingModel embedding(ServerSettings config, ServerEnvironment env) {
        ConfigValidator.validateModels(config);
        return embedding(config, env.modelDir(), builtinModels(env));
    }

    /** Where the built-in models too large for the jar are looked for. */
    public static BuiltinModelHome builtinModels(ServerEnvironment env) {
        return new BuiltinModelHome(env.builtinModelRoots());
    }

    /** Rerank resources only (calibrate reads nothing else from the file). */
    public static RerankSettings rerank(ServerSettings config) {
        ServerSettings.Rerank r = rerankSection(config);
        SessionSettings.Arena arena = r.arena() == null ? SessionSettings.DEFAULT_ARENA : SessionSettings.Arena.parse(r.arena());
        return new RerankSettings(or(r.concurrency(), RerankSettings.DEFAULT_CONCURRENCY),
                or(r.queueTimeoutMillis(), RerankSettings.DEFAULT_QUEUE_TIMEOUT_MILLIS),
                new SessionSettings(or(r.intraOpThreads(), RerankSettings.DEFAULT_INTRA_OP_THREADS), arena), r.retune());
    }

    /** The startup calibration as configured (calibrate's default levels too), and how it measures memory. */
    public static CalibrationSettings calibration(ServerSettings config, ServerEnvironment env) {
        ServerSettings.Rerank r = rerankSection(config);
        return new CalibrationSettings(or(r.calibrate(), CalibrationSettings.DEFAULTS.enabled()),
                r.calibrationLevels() == null || r.calibrationLevels().isEmpty() ? CalibrationSettings.DEFAULTS.levels()
                        : r.calibrationLevels(), env.rssMemoryProbe(), env.memoryLimitFile().orElse(null),
                env.cpuLimitFile().orElse(null));
    }

    private static ServerSettings.Rerank rerankSection(ServerSettings config) {
        return Objects.requireNonNullElse(config.rerank(), ServerSettings.Rerank.EMPTY);
    }

    /** A reranker as a project names it; a relative path resolves against RAGSEARCH_MODEL_DIR. */
    public static RerankerModel reranker(ServerSettings.RerankerRef ref, ServerEnvironment env) {
        return reranker(ref, env.modelDir(), builtinModels(env));
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
                m.normalize(), m.maxSeqLen(), m.queryPrefix(), m.passagePrefix(), m.output(), m.dimension());
        if (e5) {
            Path dir = home.multilingual().orElseThrow(() -> new ConfigException("models.embedding.builtin "
                    + ModelFiles.BUILTIN_E5 + " is not on this machine (looked in " + home.roots()
                    + "): fetch it with scripts/model/fetch-e5.sh, or set RAGSEARCH_BUILTIN_MODELS"));
            return EmbeddingModel.multilingual(dir, settings);
        }
        return m.builtin() != null ? new EmbeddingModel(m.builtin(), null, settings)
                : new EmbeddingModel(null, underModelDir(m.path(), modelDir), settings);
    }

    private static ProjectSettings project(ServerSettings.Project p, String modelDir, BuiltinModelHome home) {
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
                Optional.ofNullable(p.reranker()).map(ref -> reranker(ref, modelDir, home)));
    }

    /** A built-in kept outside the jar carries the folder it was found in (none: the factory says how to make it). */
    private static RerankerModel reranker(ServerSettings.RerankerRef ref, String modelDir, BuiltinModelHome home) {
        if (RerankerFactory.LARGE_COST.equals(ref.builtin())) {
            return RerankerModel.builtin(ref.builtin(), home.locate(ref.builtin()).orElse(null), ref.maxSeqLen());
        }
        return ref.builtin() != null ? RerankerModel.builtin(ref.builtin(), ref.maxSeqLen())
                : RerankerModel.directory(underModelDir(ref.path(), modelDir), ref.maxSeqLen(),
                        ScoreMapping.of(ref.scoreMapping(), ref.positiveClass()));
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

    /** The baselines /verification may call (RAGSEARCH_VERIFY_BASELINES); unset or blank: none. */
    private static BaselinePolicy verifyBaselines(ServerEnvironment env) {
        try {
            return BaselinePolicy.parse(env.verifyBaselines());
        } catch (IllegalArgumentException e) {
            // An entry with user:password@ is refused; the message must not carry the password into the log.
            throw new ConfigException(Environment.VERIFY_BASELINES + ": " + e.getMessage().replaceAll("[^\\s'/@,]*:[^\\s'@,]*@", "***@"));
        }
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
