package io.ragsearch.contract.settings;

import java.util.List;

/**
 * The search server's configuration file (YAML at RAGSEARCH_CONFIG or {@code --config}) as plain
 * records: what the operator writes and the server reads. Every field may be absent (null); the
 * server resolves defaults once at start-up, and {@link SettingsRules} is the one rule set both
 * programs check a file against. No logic here, so both programs' JSON libraries bind it alike.
 *
 * <p>Build them by name: start from an empty value ({@code EMPTY}, or a factory that names the one
 * field a record cannot go without) and set fields with {@code withX}, so a reader never counts
 * nulls to know which field a value fills. The withers are not bean getters: the JSON and YAML
 * shape is the record components' alone.
 */
public record ServerSettings(Server server, Models models, Rerank rerank, Database database, List<Project> projects) {

    /** A file with nothing in it: every default. */
    public static final ServerSettings EMPTY = new ServerSettings(null, null, null, null, null);

    public ServerSettings withServer(Server value) {
        return new ServerSettings(value, models, rerank, database, projects);
    }

    public ServerSettings withModels(Models value) {
        return new ServerSettings(server, value, rerank, database, projects);
    }

    public ServerSettings withRerank(Rerank value) {
        return new ServerSettings(server, models, value, database, projects);
    }

    public ServerSettings withDatabase(Database value) {
        return new ServerSettings(server, models, rerank, value, projects);
    }

    public ServerSettings withProjects(List<Project> value) {
        return new ServerSettings(server, models, rerank, database, value);
    }

    /** Listener, threading and transport-security settings. */
    public record Server(String bindAddress, Integer mcpPort, Integer adminPort, Integer toolThreads,
                         Integer toolQueue, Integer maxInFlightRequests, Integer maxQueryChars,
                         List<String> allowedHosts, List<String> allowedOrigins) {

        public static final Server EMPTY = new Server(null, null, null, null, null, null, null, null, null);

        public Server withBindAddress(String value) {
            return new Server(value, mcpPort, adminPort, toolThreads, toolQueue, maxInFlightRequests, maxQueryChars,
                    allowedHosts, allowedOrigins);
        }

        public Server withMcpPort(Integer value) {
            return new Server(bindAddress, value, adminPort, toolThreads, toolQueue, maxInFlightRequests, maxQueryChars,
                    allowedHosts, allowedOrigins);
        }

        public Server withAdminPort(Integer value) {
            return new Server(bindAddress, mcpPort, value, toolThreads, toolQueue, maxInFlightRequests, maxQueryChars,
                    allowedHosts, allowedOrigins);
        }

        public Server withToolThreads(Integer value) {
            return new Server(bindAddress, mcpPort, adminPort, value, toolQueue, maxInFlightRequests, maxQueryChars,
                    allowedHosts, allowedOrigins);
        }

        public Server withToolQueue(Integer value) {
            return new Server(bindAddress, mcpPort, adminPort, toolThreads, value, maxInFlightRequests, maxQueryChars,
                    allowedHosts, allowedOrigins);
        }

        public Server withMaxInFlightRequests(Integer value) {
            return new Server(bindAddress, mcpPort, adminPort, toolThreads, toolQueue, value, maxQueryChars,
                    allowedHosts, allowedOrigins);
        }

        public Server withMaxQueryChars(Integer value) {
            return new Server(bindAddress, mcpPort, adminPort, toolThreads, toolQueue, maxInFlightRequests, value,
                    allowedHosts, allowedOrigins);
        }

        public Server withAllowedHosts(List<String> value) {
            return new Server(bindAddress, mcpPort, adminPort, toolThreads, toolQueue, maxInFlightRequests, maxQueryChars,
                    value, allowedOrigins);
        }

        public Server withAllowedOrigins(List<String> value) {
            return new Server(bindAddress, mcpPort, adminPort, toolThreads, toolQueue, maxInFlightRequests, maxQueryChars,
                    allowedHosts, value);
        }
    }

    public record Models(ModelRef embedding) {
    }

    /**
     * An embedding model, built-in by name or a directory (model.onnx + tokenizer.json), and how it
     * makes vectors: {@code pooling} mean | cls, {@code normalize} (L2), {@code maxSeqLen} (tokens),
     * {@code queryPrefix} / {@code passagePrefix} (e5: "query: " / "passage: "), {@code output}
     * (the model output to read).
     */
    public record ModelRef(String builtin, String path, String pooling, Boolean normalize, Integer maxSeqLen,
                           String queryPrefix, String passagePrefix, String output) {

        public static final ModelRef EMPTY = new ModelRef(null, null, null, null, null, null, null, null);

        /** A built-in model by name, read as its defaults say. */
        public static ModelRef ofBuiltin(String name) {
            return EMPTY.withBuiltin(name);
        }

        /** A model directory, read as the defaults say. */
        public static ModelRef ofPath(String directory) {
            return EMPTY.withPath(directory);
        }

        public ModelRef withBuiltin(String value) {
            return new ModelRef(value, path, pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, output);
        }

        public ModelRef withPath(String value) {
            return new ModelRef(builtin, value, pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, output);
        }

        public ModelRef withPooling(String value) {
            return new ModelRef(builtin, path, value, normalize, maxSeqLen, queryPrefix, passagePrefix, output);
        }

        public ModelRef withNormalize(Boolean value) {
            return new ModelRef(builtin, path, pooling, value, maxSeqLen, queryPrefix, passagePrefix, output);
        }

        public ModelRef withMaxSeqLen(Integer value) {
            return new ModelRef(builtin, path, pooling, normalize, value, queryPrefix, passagePrefix, output);
        }

        public ModelRef withQueryPrefix(String value) {
            return new ModelRef(builtin, path, pooling, normalize, maxSeqLen, value, passagePrefix, output);
        }

        public ModelRef withPassagePrefix(String value) {
            return new ModelRef(builtin, path, pooling, normalize, maxSeqLen, queryPrefix, value, output);
        }

        public ModelRef withOutput(String value) {
            return new ModelRef(builtin, path, pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, value);
        }
    }

    /** The corpus record (PostgreSQL); {@code pollSeconds}: how often corpus versions are checked besides LISTEN. */
    public record Database(String url, String user, String password, Integer pollSeconds) {

        public static final Database EMPTY = new Database(null, null, null, null);

        /** The database at this JDBC URL, user and password from the URL or the environment. */
        public static Database at(String url) {
            return EMPTY.withUrl(url);
        }

        public Database withUrl(String value) {
            return new Database(value, user, password, pollSeconds);
        }

        public Database withUser(String value) {
            return new Database(url, value, password, pollSeconds);
        }

        public Database withPassword(String value) {
            return new Database(url, user, value, pollSeconds);
        }

        public Database withPollSeconds(Integer value) {
            return new Database(url, user, password, value);
        }
    }

    /** Rerank resources shared by all projects of the process. */
    public record Rerank(Integer concurrency, Integer queueTimeoutMillis, Integer intraOpThreads, String arena,
                         Boolean calibrate, List<Integer> calibrationLevels) {

        public static final Rerank EMPTY = new Rerank(null, null, null, null, null, null);

        public Rerank withConcurrency(Integer value) {
            return new Rerank(value, queueTimeoutMillis, intraOpThreads, arena, calibrate, calibrationLevels);
        }

        public Rerank withQueueTimeoutMillis(Integer value) {
            return new Rerank(concurrency, value, intraOpThreads, arena, calibrate, calibrationLevels);
        }

        public Rerank withIntraOpThreads(Integer value) {
            return new Rerank(concurrency, queueTimeoutMillis, value, arena, calibrate, calibrationLevels);
        }

        public Rerank withArena(String value) {
            return new Rerank(concurrency, queueTimeoutMillis, intraOpThreads, value, calibrate, calibrationLevels);
        }

        public Rerank withCalibrate(Boolean value) {
            return new Rerank(concurrency, queueTimeoutMillis, intraOpThreads, arena, value, calibrationLevels);
        }

        public Rerank withCalibrationLevels(List<Integer> value) {
            return new Rerank(concurrency, queueTimeoutMillis, intraOpThreads, arena, calibrate, value);
        }
    }

    /** One project: a name agents use, a description they read, and where its documents are. */
    public record Project(String name, String description, Source source, String language, String retrieval,
                          Gate gate, Boolean includeAddenda, RerankerRef reranker) {

        /** A project by name alone: no source yet (the rules refuse it until one is set). */
        public static Project named(String name) {
            return new Project(name, null, null, null, null, null, null, null);
        }

        /** A project of the files below a directory (the default globs). */
        public static Project ofDirectory(String name, String directory) {
            return named(name).withSource(Source.ofDirectory(directory));
        }

        /** A project whose documents the database holds. */
        public static Project fromDatabase(String name) {
            return named(name).withSource(Source.DATABASE);
        }

        public Project withName(String value) {
            return new Project(value, description, source, language, retrieval, gate, includeAddenda, reranker);
        }

        public Project withDescription(String value) {
            return new Project(name, value, source, language, retrieval, gate, includeAddenda, reranker);
        }

        public Project withSource(Source value) {
            return new Project(name, description, value, language, retrieval, gate, includeAddenda, reranker);
        }

        public Project withLanguage(String value) {
            return new Project(name, description, source, value, retrieval, gate, includeAddenda, reranker);
        }

        public Project withRetrieval(String value) {
            return new Project(name, description, source, language, value, gate, includeAddenda, reranker);
        }

        public Project withGate(Gate value) {
            return new Project(name, description, source, language, retrieval, value, includeAddenda, reranker);
        }

        /** The gate at this threshold. */
        public Project withThreshold(double value) {
            return withGate(new Gate(value));
        }

        public Project withIncludeAddenda(Boolean value) {
            return new Project(name, description, source, language, retrieval, gate, value, reranker);
        }

        public Project withReranker(RerankerRef value) {
            return new Project(name, description, source, language, retrieval, gate, includeAddenda, value);
        }
    }

    /** A directory and which files below it (globs), or the database. */
    public record Source(String directory, List<String> include, Boolean database) {

        /** The database's documents of the project's name. */
        public static final Source DATABASE = new Source(null, null, true);

        /** The files below a directory, the default globs. */
        public static Source ofDirectory(String directory) {
            return new Source(directory, null, null);
        }

        public Source withInclude(List<String> value) {
            return new Source(directory, value, database);
        }

        public Source withDatabase(Boolean value) {
            return new Source(directory, include, value);
        }
    }

    public record Gate(Double threshold) {
    }

    /** A project's reranker: the cost stand-in by name or a cross-encoder directory. */
    public record RerankerRef(String builtin, String path, Integer maxSeqLen) {

        public static final RerankerRef EMPTY = new RerankerRef(null, null, null);

        public static RerankerRef ofBuiltin(String name) {
            return EMPTY.withBuiltin(name);
        }

        public static RerankerRef ofPath(String directory) {
            return EMPTY.withPath(directory);
        }

        public RerankerRef withBuiltin(String value) {
            return new RerankerRef(value, path, maxSeqLen);
        }

        public RerankerRef withPath(String value) {
            return new RerankerRef(builtin, value, maxSeqLen);
        }

        public RerankerRef withMaxSeqLen(Integer value) {
            return new RerankerRef(builtin, path, value);
        }
    }
}
