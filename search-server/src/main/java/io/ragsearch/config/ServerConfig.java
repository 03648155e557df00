package io.ragsearch.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The server's configuration file (YAML at RAGSEARCH_CONFIG or --config). Absent fields take
 * defaults; unknown fields are errors, so a typo never silently falls back to a default.
 */
public record ServerConfig(Server server, Models models, Rerank rerank, DatabaseRef database, List<ProjectConfig> projects) {

    private static final Pattern PROJECT_NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

    public ServerConfig {
        server = server == null ? Server.defaults() : server;
        models = models == null ? new Models(null) : models;
        rerank = rerank == null ? Rerank.defaults() : rerank;
        database = database == null ? new DatabaseRef(null, null, null, null) : database;
        projects = projects == null ? List.of() : List.copyOf(projects);
    }

    /** Listener, threading and transport-security settings. */
    public record Server(String bindAddress, Integer mcpPort, Integer adminPort, Integer toolThreads,
                         Integer toolQueue, Integer maxInFlightRequests, Integer maxQueryChars,
                         List<String> allowedHosts, List<String> allowedOrigins) {

        /**
         * Loopback: a developer's `serve` is not reachable from the network unless asked
         * (`--bind 0.0.0.0`); the operator sets 0.0.0.0 in pods explicitly.
         */
        public static final String DEFAULT_BIND = "127.0.0.1";

        public static Server defaults() {
            return new Server(null, null, null, null, null, null, null, null, null);
        }

        public String bindAddressOrDefault() {
            return bindAddress == null ? DEFAULT_BIND : bindAddress;
        }

        public int mcpPortOrDefault() {
            return mcpPort == null ? 8080 : mcpPort;
        }

        public int adminPortOrDefault() {
            return adminPort == null ? 8081 : adminPort;
        }

        /** Tool work is CPU-bound: more threads than cores only queue inside the OS instead of here. */
        public int toolThreadsOrDefault() {
            return toolThreads == null ? Math.max(2, Runtime.getRuntime().availableProcessors()) : toolThreads;
        }

        public int toolQueueOrDefault() {
            return toolQueue == null ? 32 : toolQueue;
        }

        /** Requests past the tool pool and its queue wait suspended in Jetty, holding no thread. */
        public int maxInFlightRequestsOrDefault() {
            return maxInFlightRequests == null ? toolThreadsOrDefault() + toolQueueOrDefault() : maxInFlightRequests;
        }

        public int maxQueryCharsOrDefault() {
            return maxQueryChars == null ? 1000 : maxQueryChars;
        }

        Server withListener(String bind, Integer mcp, Integer admin) {
            return new Server(bind != null ? bind : bindAddress, mcp != null ? mcp : mcpPort,
                    admin != null ? admin : adminPort, toolThreads, toolQueue, maxInFlightRequests, maxQueryChars,
                    allowedHosts, allowedOrigins);
        }
    }

    /** Models: the embedding model as a built-in name or a local directory (model.onnx + tokenizer.json). */
    public record Models(ModelRef embedding) {
        public ModelRef embeddingOrDefault() {
            return embedding == null ? new ModelRef("all-minilm-l6-v2", null) : embedding;
        }
    }

    /**
     * The embedding model and how it makes vectors (see {@link io.ragsearch.embed.EmbeddingSettings}):
     * {@code pooling} mean | cls, {@code normalize} (L2, default true), {@code maxSeqLen} (tokens,
     * default 256), {@code queryPrefix} / {@code passagePrefix} (e5: "query: " / "passage: "),
     * {@code output} (the model output to read; default the token-level one).
     */
    public record ModelRef(String builtin, String path, String pooling, Boolean normalize, Integer maxSeqLen,
                           String queryPrefix, String passagePrefix, String output) {

        public ModelRef(String builtin, String path) {
            this(builtin, path, null, null, null, null, null, null);
        }

        /** The vector settings; call after {@link ServerConfig#validate()}, which reports bad values. */
        public io.ragsearch.embed.EmbeddingSettings settings() {
            return io.ragsearch.embed.EmbeddingSettings.of(pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, output);
        }

        void validate(List<String> problems, String where) {
            if ((builtin == null) == (path == null)) {
                problems.add(where + " needs exactly one of builtin or path");
            }
            if (pooling != null) {
                checkChoice(problems, where + ".pooling", pooling, List.of("mean", "cls"));
            }
            checkMaxSeqLen(problems, where + ".maxSeqLen", maxSeqLen);
            if (output != null && output.isBlank()) {
                problems.add(where + ".output must name a model output, e.g. last_hidden_state or sentence_embedding (got a blank name)");
            }
        }
    }

    /** Only the models section checked, for commands (ingest) that read nothing else from the file. */
    public void validateModels() {
        List<String> problems = new ArrayList<>();
        models.embeddingOrDefault().validate(problems, "models.embedding");
        throwIfAny(problems);
    }

    /**
     * The corpus record (PostgreSQL). Every project in it is served; a configured project with
     * source {database: true} adds its settings. {@code pollSeconds}: how often to check corpus
     * versions besides LISTEN/NOTIFY.
     */
    public record DatabaseRef(String url, String user, String password, Integer pollSeconds) {
        public boolean configured() {
            return url != null && !url.isBlank();
        }

        public int pollSecondsOrDefault() {
            return pollSeconds == null ? 10 : pollSeconds;
        }

        DatabaseRef withEnvironment(Map<String, String> env) {
            return new DatabaseRef(pick(env.get("RAGSEARCH_DB_URL"), url), pick(env.get("RAGSEARCH_DB_USER"), user),
                    pick(env.get("RAGSEARCH_DB_PASSWORD"), password), pollSeconds);
        }

        private static String pick(String override, String value) {
            return override != null && !override.isBlank() ? override : value;
        }
    }

    /** A project's reranker: the cost stand-in {builtin: minilm-pair} or a cross-encoder directory. */
    public record RerankerRef(String builtin, String path, Integer maxSeqLen) {
    }

    /**
     * Rerank resources, shared by all projects of the process. {@code concurrency}: permits of
     * the memory bound (RAGSEARCH_RERANK_CONCURRENCY; 1 until the operator has a measurement).
     */
    public record Rerank(Integer concurrency, Integer queueTimeoutMillis, Integer intraOpThreads, String arena,
                         Boolean calibrate, List<Integer> calibrationLevels) {

        public static Rerank defaults() {
            return new Rerank(null, null, null, null, null, null);
        }

        public int concurrencyOrDefault() {
            return concurrency == null ? 1 : concurrency;
        }

        /** A search waits this long for a rerank slot before "busy, retry" (a client's patience, not the probe's). */
        public int queueTimeoutMillisOrDefault() {
            return queueTimeoutMillis == null ? 10_000 : queueTimeoutMillis;
        }

        /** One thread per run: concurrency, bounded by memory and cores, is the lever (see docs/memory.md). */
        public int intraOpThreadsOrDefault() {
            return intraOpThreads == null ? 1 : intraOpThreads;
        }

        /** ONNX Runtime memory mode: shrink (default), keep or off; see SessionSettings. */
        public io.ragsearch.embed.SessionSettings.Arena arenaOrDefault() {
            return arena == null ? io.ragsearch.embed.SessionSettings.Arena.SHRINK : io.ragsearch.embed.SessionSettings.Arena.parse(arena);
        }

        public boolean calibrateOrDefault() {
            return calibrate == null || calibrate;
        }

        public List<Integer> calibrationLevelsOrDefault() {
            return calibrationLevels == null || calibrationLevels.isEmpty()
                    ? io.ragsearch.calibrate.Calibrator.DEFAULT_LEVELS : calibrationLevels;
        }

        Rerank withConcurrency(Integer n) {
            return n == null ? this : new Rerank(n, queueTimeoutMillis, intraOpThreads, arena, calibrate, calibrationLevels);
        }
    }

    /** One project: a name agents use, a description they read, and where its documents are. */
    public record ProjectConfig(String name, String description, Source source, String language,
                                String retrieval, Gate gate, Boolean includeAddenda, RerankerRef reranker) {

        public ProjectConfig(String name, String description, Source source, String language, String retrieval,
                             Gate gate, Boolean includeAddenda) {
            this(name, description, source, language, retrieval, gate, includeAddenda, null);
        }

        public String languageOrDefault() {
            return language == null ? "auto" : language;
        }

        public String retrievalOrDefault() {
            return retrieval == null ? "auto" : retrieval;
        }

        public boolean includeAddendaOrDefault() {
            return includeAddenda != null && includeAddenda;
        }

        /** The configured gate threshold, or null: the default then follows the retrieval mode (see RelevanceGate). */
        public Double threshold() {
            return gate == null ? null : gate.threshold();
        }

        public String descriptionOrDefault() {
            return description == null ? "" : description;
        }
    }

    /** Where a project's documents are: a directory, and which files below it (globs; default Markdown and text). */
    public record Source(String directory, List<String> include, Boolean database) {
        public Source(String directory) {
            this(directory, null, null);
        }

        public Source(String directory, List<String> include) {
            this(directory, include, null);
        }

        public boolean fromDatabase() {
            return database != null && database;
        }

        public List<String> includeOrDefault() {
            return include == null || include.isEmpty() ? io.ragsearch.corpus.CorpusLoader.DEFAULT_INCLUDE : include;
        }
    }

    public record Gate(Double threshold) {
    }

    /** This configuration with environment overrides applied (RAGSEARCH_BIND_ADDRESS, _MCP_PORT, _ADMIN_PORT). */
    public ServerConfig withEnvironment(Map<String, String> env) {
        Server s = server.withListener(env.get("RAGSEARCH_BIND_ADDRESS"),
                intFromEnv(env, "RAGSEARCH_MCP_PORT"), intFromEnv(env, "RAGSEARCH_ADMIN_PORT"));
        return new ServerConfig(s, models, rerank.withConcurrency(intFromEnv(env, "RAGSEARCH_RERANK_CONCURRENCY")),
                database.withEnvironment(env), projects);
    }

    public ServerConfig withListener(String bind, Integer mcpPort, Integer adminPort) {
        return new ServerConfig(server.withListener(bind, mcpPort, adminPort), models, rerank, database, projects);
    }

    public ServerConfig withDatabase(String url) {
        return url == null ? this : new ServerConfig(server, models, rerank,
                new DatabaseRef(url, database.user(), database.password(), database.pollSeconds()), projects);
    }

    public ServerConfig withProjects(List<ProjectConfig> more) {
        List<ProjectConfig> all = new ArrayList<>(projects);
        all.addAll(more);
        return new ServerConfig(server, models, rerank, database, all);
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

    /** Every problem at once, so a person fixes the file in one go. */
    public void validate() {
        List<String> problems = new ArrayList<>();
        checkPort(problems, "server.mcpPort", server.mcpPortOrDefault());
        checkPort(problems, "server.adminPort", server.adminPortOrDefault());
        if (server.mcpPortOrDefault() != 0 && server.mcpPortOrDefault() == server.adminPortOrDefault()) {
            problems.add("server.mcpPort and server.adminPort must differ (both " + server.mcpPortOrDefault() + ")");
        }
        checkPositive(problems, "server.toolThreads", server.toolThreadsOrDefault());
        checkPositive(problems, "server.toolQueue", server.toolQueueOrDefault());
        checkPositive(problems, "server.maxInFlightRequests", server.maxInFlightRequestsOrDefault());
        checkPositive(problems, "server.maxQueryChars", server.maxQueryCharsOrDefault());
        checkPositive(problems, "rerank.concurrency (RAGSEARCH_RERANK_CONCURRENCY)", rerank.concurrencyOrDefault());
        checkPositive(problems, "rerank.queueTimeoutMillis", rerank.queueTimeoutMillisOrDefault());
        checkPositive(problems, "rerank.intraOpThreads", rerank.intraOpThreadsOrDefault());
        rerank.calibrationLevelsOrDefault().forEach(k -> checkPositive(problems, "rerank.calibrationLevels", k));
        if (rerank.arena() != null) {
            checkChoice(problems, "rerank.arena", rerank.arena(), List.of("shrink", "keep", "off"));
        }
        models.embeddingOrDefault().validate(problems, "models.embedding");
        if (projects.isEmpty() && !database.configured()) {
            problems.add("no projects: give at least one under projects (or --project NAME=DIR), or a database");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < projects.size(); i++) {
            ProjectConfig p = projects.get(i);
            String where = "projects[" + i + "]";
            if (p.name() == null || !PROJECT_NAME.matcher(p.name()).matches()) {
                problems.add(where + ".name must be lower-case letters, digits, '.', '_' or '-' (got " + p.name() + ")");
            } else if (!names.add(p.name())) {
                problems.add(where + ".name '" + p.name() + "' is used twice");
            }
            if (p.source() != null && p.source().fromDatabase()) {
                if (!database.configured()) {
                    problems.add(where + ".source.database needs database.url (or RAGSEARCH_DB_URL)");
                }
            } else if (p.source() == null || p.source().directory() == null || p.source().directory().isBlank()) {
                problems.add(where + ".source.directory is required (or source.database: true)");
            }
            checkChoice(problems, where + ".language", p.languageOrDefault(), List.of("auto", "ko", "korean", "en", "english"));
            checkChoice(problems, where + ".retrieval", p.retrievalOrDefault(), List.of("auto", "lexical", "vector", "hybrid"));
            RerankerRef r = p.reranker();
            if (r != null && (r.builtin() == null) == (r.path() == null)) {
                problems.add(where + ".reranker needs exactly one of builtin or path");
            }
            if (r != null) {
                checkMaxSeqLen(problems, where + ".reranker.maxSeqLen", r.maxSeqLen());
            }
            Double t = p.threshold();
            if (t != null && (t.isNaN() || t < 0 || t > 1)) {
                problems.add(where + ".gate.threshold must lie in [0, 1] (got " + t + ")");
            }
        }
        throwIfAny(problems);
    }

    private static void throwIfAny(List<String> problems) {
        if (!problems.isEmpty()) {
            throw new ConfigException("invalid configuration:\n  - " + String.join("\n  - ", problems));
        }
    }

    private static void checkPort(List<String> problems, String field, int port) {
        if (port < 0 || port > 65535) {
            problems.add(field + " must be 0..65535 (0 = any free port), got " + port);
        }
    }

    /** One bound for embedding models and cross-encoders: both are encoders with a position limit. */
    private static void checkMaxSeqLen(List<String> problems, String field, Integer value) {
        int min = io.ragsearch.embed.EmbeddingSettings.MIN_MAX_SEQ_LEN;
        int max = io.ragsearch.embed.EmbeddingSettings.MAX_MAX_SEQ_LEN;
        if (value != null && (value < min || value > max)) {
            problems.add(field + " must be " + min + ".." + max + " tokens (got " + value + ")");
        }
    }

    private static void checkPositive(List<String> problems, String field, int value) {
        if (value < 1) {
            problems.add(field + " must be at least 1, got " + value);
        }
    }

    private static void checkChoice(List<String> problems, String field, String value, List<String> allowed) {
        if (!allowed.contains(value.toLowerCase(java.util.Locale.ROOT))) {
            problems.add(field + " must be one of " + allowed + " (got " + value + ")");
        }
    }
}
