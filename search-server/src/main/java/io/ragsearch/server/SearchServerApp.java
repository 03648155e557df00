package io.ragsearch.server;

import io.ragsearch.telemetry.Telemetry;

import io.ragsearch.admin.AdminServer;
import io.ragsearch.admin.HealthState;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.calibrate.CalibrationSettings;
import io.ragsearch.calibrate.CpuLimit;
import io.ragsearch.calibrate.MemoryProbe;
import io.ragsearch.calibrate.NativeMemorySettings;
import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.auth.TokenVerifier;
import io.ragsearch.mcp.McpHttpServer;
import io.ragsearch.mcp.SearchTools;
import io.ragsearch.mcp.RerankLaneSettings;
import io.ragsearch.mcp.ToolCatalog;
import io.ragsearch.mcp.InProcessToolClient;
import io.ragsearch.auth.Caller;
import io.ragsearch.mcp.ToolExecutor;
import io.ragsearch.rerank.RerankSettings;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.refresh.DatabaseSync;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchService;
import io.ragsearch.store.CorpusStore;
import io.ragsearch.store.Database;
import io.ragsearch.store.DatabaseSettings;
import io.ragsearch.verification.VerificationRuns;
import io.ragsearch.verification.Target;
import io.ragsearch.verification.Verifier;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: the search server assembled from its resolved settings. Admin listener
 * first (so probes answer during model load and indexing), then models, lexical project
 * indexes and the MCP listener (started); article vectors, then calibration, follow in the
 * background behind readiness, and so do database projects.
 */
public final class SearchServerApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SearchServerApp.class);
    /** {@code service.name} of the server's spans unless OTEL_SERVICE_NAME says otherwise. */
    public static final String SERVICE_NAME = "ragsearch-server";

    private final AppSettings settings;
    private final Metrics metrics = new Metrics();
    private final HealthState health = new HealthState();
    private final ProjectCatalog catalog = new ProjectCatalog();
    private final ProjectAssembly assembly;
    private volatile Calibration calibration;
    private volatile StartupEmbedding vectors;
    private AdminServer admin;
    private Database database;
    private volatile DatabaseSync databaseSync;
    private ToolExecutor executor;
    private McpHttpServer mcp;
    private TokenVerifier tokens;
    private volatile ToolCatalog toolCatalog;
    private SearchService search;
    private Telemetry telemetry = Telemetry.OFF;
    private volatile LiveRetune liveRetune;

    private SearchServerApp(AppSettings settings) {
        this.settings = settings;
        this.assembly = new ProjectAssembly(settings, health::phase);
    }

    /**
     * Resolves the configuration with the environment's overrides (see {@link SettingsResolver}) and
     * starts the server: what `serve` does, given the variables as a map.
     */
    public static SearchServerApp start(ServerSettings config, Map<String, String> env) throws Exception {
        return start(SettingsResolver.resolve(config, ServerEnvironment.read(env)));
    }

    /**
     * Starts the server and waits until it is ready: every project with its vectors, calibration
     * done (what in-process callers and tests want: the answers of the configured ranking).
     */
    public static SearchServerApp start(AppSettings settings) throws Exception {
        SearchServerApp app = launch(settings);
        try {
            app.awaitReady();
            return app;
        } catch (Exception | Error e) {
            app.close();
            throw e;
        }
    }

    /**
     * Starts the server and returns once it is started (`/startupz` 200): models loaded, lexical
     * indexes built, MCP listening. Article vectors and calibration follow in the background;
     * `/readyz` answers 503 with their progress until they are done. What `serve` runs.
     */
    public static SearchServerApp launch(AppSettings settings) throws Exception {
        String fileNames = System.getProperty("sun.jnu.encoding", "");
        if (!fileNames.equalsIgnoreCase("UTF-8")) {
            // Document ids come from file names; Korean ones turn into '?' under a non-UTF-8 locale.
            LOG.warn("file names are decoded as {}: non-ASCII file names will not load correctly; run with LANG=C.UTF-8", fileNames);
        }
        SearchServerApp app = new SearchServerApp(settings);
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
        AppSettings.Serving s = settings.serving();
        NativeMemorySettings.apply(); // before any model allocates: see the class for why
        telemetry = Telemetry.start(s.otel(), SERVICE_NAME, Version.current());
        ServerInfo info = new ServerInfo(health, new ServerInfo.ModelParts(assembly.embedding(), assembly.rerankers(),
                settings.models().rerank().concurrency()), catalog, () -> Optional.ofNullable(databaseSync),
                () -> Optional.ofNullable(vectors).flatMap(StartupEmbedding::describe));
        VerificationRuns verification = new VerificationRuns(s.verifyChecks(), this::verificationTarget, s.mcp().bearerToken(), s.verifyBaselines(),
                Verifier.DEFAULT_TIMEOUT, Clock.systemUTC());
        admin = new AdminServer(s.admin(), health, metrics, info::describe,
                () -> CalibrationEndpoint.render(calibration, liveRetune == null ? null : liveRetune.snapshot()),
                new VerificationAdmin(verification));
        admin.start();
        ProcessGauges.register(metrics, assembly.embedding());

        // Startup covers models and lexical indexes only; article vectors and calibration follow behind readiness.
        StartupEmbedding pending = assembly.prepareDirectoryProjects(catalog);
        vectors = pending;
        registerEmbeddingGauges(pending);
        search = assembly.searchService(catalog, metrics, telemetry.tracer());
        RerankSettings rerank = settings.models().rerank();
        executor = new ToolExecutor(s.tools(), RerankLaneSettings.forPermits(rerank.concurrency(), rerank.queueTimeoutMillis()), metrics);
        if (rerank.retune() != null) {
            startLiveRetune(rerank);
        }
        SearchTools tools = new SearchTools(catalog, search, metrics);
        s.jwt().ifPresent(jwt -> {
            tokens = TokenVerifier.start(jwt);
            // No keys, no service: every token would be refused, so the Service should not send agents here.
            health.addReadinessCheck(tokens.keys()::notReadyReason);
        });
        toolCatalog = new ToolCatalog(tools.definitions(), executor, telemetry.tracer());
        mcp = new McpHttpServer(s.mcp(), s.security(), toolCatalog, Version.current(), metrics,
                Optional.ofNullable(tokens));
        mcp.start();
        health.addReadinessCheck(pending::notReadyReason);
        health.addReadinessDetail("embedding", pending::pending);
        health.markStarted();
        // Calibration after the embedding: the memory it measures is the serving pod's, not the embedding's passing peak.
        pending.start(() -> calibration = StartupCalibration.run(settings.models().calibration(), assembly.rerankers().all(),
                s.limits().candidates(), metrics).orElse(null));
        settings.database().ifPresent(this::startDatabaseSync);
        LOG.info("MCP on http://{}:{}{} ({}; auth {}), admin on port {}", s.mcp().bindAddress(), mcp.port(),
                McpHttpServer.PATH, s.security().describe(), s.jwt().map(j -> "jwt, issuer " + j.issuer())
                        .orElse(s.mcp().bearerToken() == null ? "off" : "static bearer token"), admin.port());
        if (telemetry.exporting()) {
            LOG.info("traces of tool calls and searches exported over OTLP as the OTEL_* variables say (docs/telemetry.md)");
        }
    }

    /** The permits follow the memory and CPU limits from now on (the operator's retune policy is in the configuration). */
    private void startLiveRetune(RerankSettings rerank) {
        CalibrationSettings c = settings.models().calibration();
        Optional<Path> file = c.limitFile() != null ? Optional.of(c.limitFile()) : MemoryProbe.detect(c.rssProbe()).limitFile();
        Optional<CpuLimit> cpu = c.cpuLimitFile() != null ? Optional.of(CpuLimit.ofFile(c.cpuLimitFile())) : CpuLimit.detect();
        LOG.info("rerank concurrency follows the memory limit in {} and the CPU limit in {}",
                file.map(Path::toString).orElse("(none: no limit to follow)"),
                cpu.map(l -> l.where().toString()).orElse("(none: the operator's CPU limit holds)"));
        LiveRetune live = new LiveRetune(rerank.retune(), () -> file.map(MemoryProbe::readLimit).orElse(OptionalLong.empty()),
                () -> cpu.map(CpuLimit::read).orElse(OptionalLong.empty()), search.rerankLimiter(), executor::resizeRerankLane, () -> calibration, metrics, Clock.systemUTC());
        liveRetune = live;
        admin.acceptMemoryLimits(live::announce);
        live.start();
    }

    /**
     * This server as its own verification reaches it: over loopback unless the listeners are
     * bound to one address; null until the MCP listener serves.
     */
    private Target verificationTarget() {
        McpHttpServer serving = mcp;
        StartupEmbedding pending = vectors;
        // Checks against a project still served lexically would judge the wrong ranking.
        if (serving == null || !health.started() || pending == null || !pending.done()) {
            return null;
        }
        AppSettings.Serving s = settings.serving();
        String host = s.mcp().bindAddress().equals("0.0.0.0") || s.mcp().bindAddress().equals("::") ? "127.0.0.1" : s.mcp().bindAddress();
        host = host.contains(":") ? "[" + host + "]" : host;
        Target self = Target.of("http://" + host + ":" + serving.port() + McpHttpServer.PATH, "http://" + host + ":" + admin.port(),
                s.mcp().bearerToken());
        // Mode jwt: no token for our own port exists (and none may be made); ask the tools in process.
        ToolCatalog tools = toolCatalog;
        return s.jwt().isEmpty() ? self : self.askedInProcess(timeout -> new InProcessToolClient(tools, Caller.VERIFIER, timeout));
    }

    /**
     * Database projects load in the background after startup: a database that is down must not
     * keep the process from starting (liveness stays 200); readiness waits for them instead.
     */
    private void startDatabaseSync(DatabaseSettings ref) {
        database = ref.open();
        DatabaseSync sync = new DatabaseSync(new CorpusStore(database), catalog, assembly.databaseProjects(), ref.pollInterval());
        health.addReadinessCheck(sync::notReadyReason);
        metrics.gauge("ragsearch_database_reachable", "1 while the corpus database answers, 0 during an outage",
                () -> sync.reachable() ? 1 : 0);
        databaseSync = sync;
        sync.start();
    }

    /** The embedding's progress in /metrics: the operator and a dashboard see a long first start move. */
    private void registerEmbeddingGauges(StartupEmbedding pending) {
        metrics.gauge("ragsearch_embedding_articles_needed", "Articles whose vectors this start needs (cached or embedded)",
                () -> pending.snapshot().articlesTotal());
        metrics.gauge("ragsearch_embedding_articles_done", "Articles of this start that have their vector",
                () -> pending.snapshot().articlesDone());
        metrics.gauge("ragsearch_embedding_seconds_left", "Estimated seconds until every article has its vector (-1: not known yet)",
                () -> {
                    Long left = pending.snapshot().secondsLeft();
                    return left == null ? -1 : left;
                });
    }

    /**
     * Waits until the background part of the start is done: every project's article vectors
     * and calibration.
     *
     * @throws IllegalStateException when that failed (the reason in the message) or the server was closed first
     */
    public void awaitReady() throws InterruptedException {
        vectors.await();
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

    @Override
    public void close() {
        // Calls still queued are answered "shutting down, retry" from now on; the listener's graceful
        // stop then waits only for the calls running, which finish against a complete server.
        if (executor != null) {
            executor.beginShutdown();
        }
        try {
            if (mcp != null) {
                mcp.close();
            }
        } catch (Exception ex) {
            LOG.warn("stopping the MCP listener: {}", ex.getMessage());
        }
        if (liveRetune != null) {
            liveRetune.close();
        }
        if (vectors != null) {
            vectors.close();
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
        if (tokens != null) {
            tokens.close();
        }
        if (admin != null) {
            admin.close();
        }
        catalog.all().forEach(p -> p.index().close());
        assembly.close();
        telemetry.close(); // last: the spans of the calls that finished above are flushed
    }
}
