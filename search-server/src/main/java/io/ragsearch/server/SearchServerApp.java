package io.ragsearch.server;

import io.ragsearch.admin.AdminServer;
import io.ragsearch.admin.HealthState;
import io.ragsearch.admin.Metrics;
import io.ragsearch.admin.ProcessMemory;
import io.ragsearch.calibrate.Calibration;
import io.ragsearch.calibrate.Calibrator;
import io.ragsearch.calibrate.MemoryProbe;
import io.ragsearch.calibrate.NativeMemorySettings;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.rerank.RerankLimiter;
import io.ragsearch.rerank.Reranker;
import io.ragsearch.rerank.RerankerFactory;
import io.ragsearch.config.ServerConfig;
import io.ragsearch.embed.EmbeddingModels;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.mcp.McpHttpServer;
import io.ragsearch.mcp.SearchTools;
import io.ragsearch.mcp.ToolExecutor;
import io.ragsearch.mcp.TransportSecurityPolicy;
import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.ProjectLoader;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.search.SearchService;
import io.ragsearch.store.CorpusStore;
import io.ragsearch.store.Database;
import io.ragsearch.store.DatabaseSync;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search server assembled: admin listener first (so probes answer during model load and
 * indexing), then models, project indexes, and last the MCP listener.
 */
public final class SearchServerApp implements AutoCloseable {

    public static final String VERSION = "0.1.0";
    private static final Logger LOG = LoggerFactory.getLogger(SearchServerApp.class);

    private final ServerConfig config;
    private final Map<String, String> env;
    private final Metrics metrics = new Metrics();
    private final HealthState health = new HealthState();
    private final ProjectCatalog catalog = new ProjectCatalog();
    private AdminServer admin;
    private final ModelRegistry registry = new ModelRegistry();
    private final Map<ServerConfig.RerankerRef, Reranker> rerankers = new ConcurrentHashMap<>();
    private volatile Calibration calibration;
    private Database database;
    private DatabaseSync databaseSync;
    private TextEmbedder embedder;
    private ProjectLoader.EmbeddingTokenizer tokenizerOnly;
    private ToolExecutor executor;
    private McpHttpServer mcp;
    private SearchService search;

    private SearchServerApp(ServerConfig config, Map<String, String> env) {
        this.config = config;
        this.env = env;
    }

    public static SearchServerApp start(ServerConfig config, Map<String, String> env) throws Exception {
        config.validate();
        String fileNames = System.getProperty("sun.jnu.encoding", "");
        if (!fileNames.equalsIgnoreCase("UTF-8")) {
            // Document ids come from file names; Korean ones turn into '?' under a non-UTF-8 locale.
            LOG.warn("file names are decoded as {}: non-ASCII file names will not load correctly; run with LANG=C.UTF-8", fileNames);
        }
        SearchServerApp app = new SearchServerApp(config, env);
        try {
            app.startAll();
            return app;
        } catch (Exception | Error e) {
            app.health.markFailed(e.getMessage());
            app.close();
            throw e;
        }
    }

    private void startAll() throws Exception {
        ServerConfig.Server s = config.server();
        String token = bearerToken(env);
        NativeMemorySettings.apply(); // before any model allocates: see the class for why
        admin = new AdminServer(s.bindAddressOrDefault(), s.adminPortOrDefault(), health, metrics, this::info,
                () -> Optional.ofNullable(calibration));
        admin.start();
        registerProcessMetrics();

        search = loadProjects(catalog);
        calibrate();
        executor = new ToolExecutor(s.toolThreadsOrDefault(), s.toolQueueOrDefault(), metrics);
        SearchTools tools = new SearchTools(catalog, search, executor, metrics);
        TransportSecurityPolicy security = TransportSecurityPolicy.forBind(s.bindAddressOrDefault(), s.allowedHosts(), s.allowedOrigins());
        mcp = new McpHttpServer(s.bindAddressOrDefault(), s.mcpPortOrDefault(), s.maxInFlightRequestsOrDefault(),
                security, tools.specifications(), VERSION, token);
        mcp.start();
        health.markStarted();
        startDatabaseSync();
        LOG.info("MCP on http://{}:{}{} ({}; bearer-token auth {}), admin on port {}", s.bindAddressOrDefault(), mcp.port(),
                McpHttpServer.PATH, security.describe(), token == null ? "off" : "on", admin.port());
    }

    /**
     * The bearer token, or null when auth is off. A variable that is set but blank is refused: it
     * is a Secret with an empty key, and serving without auth then would be a silent downgrade.
     */
    static String bearerToken(Map<String, String> env) {
        String token = env.get("RAGSEARCH_AUTH_TOKEN");
        if (token == null) {
            return null;
        }
        if (token.isBlank()) {
            throw new io.ragsearch.config.ConfigException("RAGSEARCH_AUTH_TOKEN is set but blank: set a token, or unset the "
                    + "variable to serve without bearer-token auth");
        }
        return token.strip();
    }

    /**
     * Database projects load in the background after startup: a database that is down must not
     * keep the process from starting (liveness stays 200); readiness waits for them instead.
     */
    private void startDatabaseSync() {
        ServerConfig.DatabaseRef ref = config.database();
        if (!ref.configured()) {
            return;
        }
        database = new Database(ref.url(), ref.user(), ref.password());
        databaseSync = new DatabaseSync(new CorpusStore(database), catalog, databaseProjectBuilder(),
                java.time.Duration.ofSeconds(ref.pollSecondsOrDefault()));
        health.addReadinessCheck(databaseSync::notReadyReason);
        DatabaseSync sync = databaseSync;
        metrics.gauge("ragsearch_database_reachable", "1 while the corpus database answers, 0 during an outage",
                () -> sync.reachable() ? 1 : 0);
        databaseSync.start();
    }

    /** Builds a database project with the settings a configured project of the same name with source {database: true} gives. */
    private DatabaseSync.ProjectBuilder databaseProjectBuilder() {
        ProjectLoader loader = new ProjectLoader(this::embeddingTokenizer, this::embedder, this::reranker);
        Map<String, ServerConfig.ProjectConfig> settings = new LinkedHashMap<>();
        config.projects().stream().filter(p -> p.source() != null && p.source().fromDatabase()).forEach(p -> settings.put(p.name(), p));
        return stored -> loader.loadStored(stored, settings.get(stored.name()));
    }

    /** Loads every directory project (also used by the query command, which serves nothing). */
    SearchService loadProjects(ProjectCatalog into) throws IOException {
        ProjectLoader loader = new ProjectLoader(this::embeddingTokenizer, this::embedder, this::reranker);
        // Rerankers of database projects are loaded now, so calibration measures them too.
        config.projects().stream().filter(p -> p.reranker() != null).forEach(p -> reranker(p.reranker()));
        for (ServerConfig.ProjectConfig p : config.projects()) {
            if (p.source() != null && p.source().fromDatabase()) {
                continue;
            }
            health.phase("indexing project " + p.name());
            long t0 = System.nanoTime();
            Project project = loader.load(p);
            into.put(project);
            LOG.info("project {} indexed in {} ms", p.name(), (System.nanoTime() - t0) / 1_000_000);
        }
        ServerConfig.Rerank r = config.rerank();
        RerankLimiter limiter = new RerankLimiter(r.concurrencyOrDefault(), r.queueTimeoutMillisOrDefault(), metrics);
        return new SearchService(into, this::embedder, limits(), limiter);
    }

    private SearchLimits limits() {
        return new SearchLimits(config.server().maxQueryCharsOrDefault(),
                SearchLimits.DEFAULTS.defaultTopK(), SearchLimits.DEFAULTS.maxTopK(), SearchLimits.DEFAULTS.legDepth(),
                SearchLimits.DEFAULTS.candidates(), SearchLimits.DEFAULTS.maxHitChars());
    }

    /** One reranker per distinct configuration; the registry shares the session between equal models. */
    private Reranker reranker(ServerConfig.RerankerRef ref) {
        return rerankers.computeIfAbsent(ref, key -> {
            health.phase("loading reranker " + (key.builtin() != null ? key.builtin() : key.path()));
            try {
                ServerConfig.Rerank r = config.rerank();
                return new RerankerFactory(registry, new SessionSettings(r.intraOpThreadsOrDefault(), r.arenaOrDefault()), env)
                        .create(key);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Measures the rerank cost before the server calls itself started (the operator reads it). */
    private void calibrate() {
        if (!config.rerank().calibrateOrDefault()) {
            LOG.info("calibration disabled by configuration");
            return;
        }
        health.phase("calibrating");
        long t0 = System.nanoTime();
        calibration = new Calibrator(MemoryProbe.detect(), config.rerank().calibrationLevelsOrDefault())
                .calibrate(List.copyOf(rerankers.values()), limits().candidates());
        LOG.info("calibration ({}, {} ms): resident {} MiB, {} MiB per rerank run, reranker {}", calibration.method(),
                (System.nanoTime() - t0) / 1_000_000, calibration.residentBytes() >> 20, calibration.perRunBytes() >> 20,
                calibration.reranker());
        metrics.gauge("ragsearch_calibration_resident_bytes", "Resident memory measured by calibration", calibration::residentBytes);
        metrics.gauge("ragsearch_calibration_per_run_bytes", "Memory one concurrent rerank run costs", calibration::perRunBytes);
        metrics.gauge("ragsearch_calibration_memory_limit_bytes", "Memory limit seen by calibration (0: none)",
                () -> calibration.memoryLimitBytes() == null ? 0 : calibration.memoryLimitBytes());
    }

    /** The tokenizer alone: enough to decide AUTO retrieval without loading the model. */
    private synchronized ProjectLoader.EmbeddingTokenizer embeddingTokenizer() {
        if (embedder != null) {
            return new ProjectLoader.EmbeddingTokenizer(embedder.name(), embedder.tokenizer());
        }
        if (tokenizerOnly == null) {
            try {
                ModelFiles files = modelFiles();
                tokenizerOnly = new ProjectLoader.EmbeddingTokenizer(files.name(), TextEmbedder.loadTokenizer(files,
                        config.models().embeddingOrDefault().settings()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return tokenizerOnly;
    }

    private ModelFiles modelFiles() throws IOException {
        return EmbeddingModels.resolve(config.models().embeddingOrDefault(), env);
    }

    /** Loaded on first use: a configuration without a vector leg never pays for the model. */
    private synchronized TextEmbedder embedder() {
        if (embedder == null) {
            health.phase("loading embedding model");
            try {
                long t0 = System.nanoTime();
                // Embedding runs are small and already bounded by the tool threads; all cores serve each one.
                embedder = TextEmbedder.load(registry, modelFiles(),
                        new SessionSettings(Runtime.getRuntime().availableProcessors(), config.rerank().arenaOrDefault()),
                        config.models().embeddingOrDefault().settings());
                if (tokenizerOnly != null) {
                    tokenizerOnly.tokenizer().close();
                    tokenizerOnly = null;
                }
                LOG.info("embedding model {} ({}) loaded in {} ms", embedder.name(), embedder.digest(),
                        (System.nanoTime() - t0) / 1_000_000);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return embedder;
    }

    private void registerProcessMetrics() {
        metrics.gauge("ragsearch_process_resident_bytes", "Resident set size of the server process",
                () -> ProcessMemory.residentBytes());
        metrics.gauge("ragsearch_process_peak_resident_bytes", "Peak resident set size of the server process",
                () -> ProcessMemory.peakResidentBytes());
        metrics.gauge("ragsearch_embedding_texts_total", "Texts embedded since start (articles at indexing, queries)",
                () -> embedder == null ? 0 : embedder.textsEmbedded());
        metrics.gauge("ragsearch_jvm_heap_used_bytes", "JVM heap in use",
                () -> Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory());
    }

    Map<String, Object> info() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("version", VERSION);
        info.put("status", health.started() ? "started" : health.startupPhase());
        List<Map<String, Object>> models = new ArrayList<>();
        TextEmbedder e = embedder;
        if (e != null) {
            models.add(Map.of("role", "embedding", "name", e.name(), "digest", e.digest(), "dimension", e.dimension(),
                    "loaded", true, "output", e.output(), "pooling", e.settings().pooling().wireName(),
                    "normalize", e.settings().normalize(), "maxSeqLen", e.settings().maxSeqLen()));
        } else {
            ServerConfig.ModelRef ref = config.models().embeddingOrDefault();
            models.add(Map.of("role", "embedding", "name", ref.builtin() != null ? ref.builtin() : ref.path(), "loaded", false,
                    "why", "no project uses a vector leg"));
        }
        rerankers.forEach((ref, r) -> models.add(Map.of("role", "reranker", "name", r.name(), "digest", r.digest(),
                "trained", r.trained(), "maxSeqLen", r.maxSeqLen())));
        info.put("models", models);
        info.put("rerankConcurrency", config.rerank().concurrencyOrDefault());
        List<Map<String, Object>> projects = new ArrayList<>();
        for (Project p : catalog.all()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", p.name());
            m.put("documents", p.corpus().documents().size());
            m.put("articles", p.corpus().articleCount());
            m.put("corpusVersion", p.corpus().version());
            m.put("language", p.index().language().name().toLowerCase(Locale.ROOT));
            m.put("retrieval", p.mode().wireName());
            m.put("retrievalReason", p.modeReason());
            m.put("gateThreshold", p.gate().threshold());
            m.put("rerank", p.rerankDescription());
            m.put("loadProblems", p.loadProblems());
            projects.add(m);
        }
        info.put("projects", projects);
        if (databaseSync != null) {
            info.put("database", databaseSync.describe());
        }
        return info;
    }

    public int mcpPort() {
        return mcp.port();
    }

    public int adminPort() {
        return admin.port();
    }

    public ProjectCatalog catalog() {
        return catalog;
    }

    public SearchService search() {
        return search;
    }

    public Metrics metrics() {
        return metrics;
    }

    public ToolExecutor executor() {
        return executor;
    }

    /** For the query command: projects loaded (directory and database), nothing served. */
    public static SearchService loadOnly(ServerConfig config, Map<String, String> env, ProjectCatalog into) throws IOException {
        config.validate();
        SearchServerApp app = new SearchServerApp(config, env);
        SearchService search = app.loadProjects(into);
        ServerConfig.DatabaseRef ref = config.database();
        if (ref.configured()) {
            DatabaseSync.ProjectBuilder builder = app.databaseProjectBuilder();
            try (Database db = new Database(ref.url(), ref.user(), ref.password())) {
                CorpusStore store = new CorpusStore(db);
                for (String name : store.versions().keySet()) {
                    into.put(builder.build(store.read(name, 0).orElseThrow()));
                }
            } catch (java.sql.SQLException e) {
                throw new IOException("cannot read the database " + Database.redact(ref.url()) + ": " + e.getMessage(), e);
            }
        }
        return search;
    }

    @Override
    public void close() {
        // The listener first: calls in flight finish against a complete server.
        try {
            if (mcp != null) {
                mcp.close();
            }
        } catch (Exception ex) {
            LOG.warn("stopping the MCP listener: {}", ex.getMessage());
        }
        if (databaseSync != null) {
            databaseSync.close();
        }
        if (database != null) {
            database.close();
        }
        if (executor != null) {
            executor.close();
        }
        if (admin != null) {
            admin.close();
        }
        catalog.all().forEach(p -> p.index().close());
        if (embedder != null) {
            embedder.close();
        }
        if (tokenizerOnly != null) {
            tokenizerOnly.tokenizer().close();
        }
        registry.close();
    }
}
