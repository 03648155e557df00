package io.ragsearch.config;

import java.util.List;

/**
 * The server's configuration file (YAML at RAGSEARCH_CONFIG or --config) as it is written:
 * plain records, every field nullable (absent). Nothing here knows a default or a rule:
 * {@link ConfigValidator} checks the values given, and the composition root
 * (SettingsResolver in the server package) turns the file into each component's settings,
 * taking each absent field's default from the component that owns it. Unknown fields are errors
 * ({@link ConfigLoader}), so a typo never silently falls back to a default.
 */
public record ServerConfig(Server server, Models models, Rerank rerank, DatabaseRef database, List<ProjectConfig> projects) {

    /** Listener, threading and transport-security settings. */
    public record Server(String bindAddress, Integer mcpPort, Integer adminPort, Integer toolThreads,
                         Integer toolQueue, Integer maxInFlightRequests, Integer maxQueryChars,
                         List<String> allowedHosts, List<String> allowedOrigins) {
    }

    /** Models: the embedding model as a built-in name or a local directory (model.onnx + tokenizer.json). */
    public record Models(ModelRef embedding) {
    }

    /**
     * The embedding model and how it makes vectors: {@code pooling} mean | cls, {@code normalize},
     * {@code maxSeqLen} (tokens), {@code queryPrefix} / {@code passagePrefix} (e5: "query: " /
     * "passage: "), {@code output} (the model output to read).
     */
    public record ModelRef(String builtin, String path, String pooling, Boolean normalize, Integer maxSeqLen,
                           String queryPrefix, String passagePrefix, String output) {

        public ModelRef(String builtin, String path) {
            this(builtin, path, null, null, null, null, null, null);
        }
    }

    /**
     * The corpus record (PostgreSQL). Every project in it is served; a configured project with
     * source {database: true} adds its settings. {@code pollSeconds}: how often to check corpus
     * versions besides LISTEN/NOTIFY.
     */
    public record DatabaseRef(String url, String user, String password, Integer pollSeconds) {
    }

    /** A project's reranker: the cost stand-in {builtin: minilm-pair} or a cross-encoder directory. */
    public record RerankerRef(String builtin, String path, Integer maxSeqLen) {
    }

    /**
     * Rerank resources, shared by all projects of the process. {@code concurrency}: permits of
     * the memory bound (RAGSEARCH_RERANK_CONCURRENCY overrides it).
     */
    public record Rerank(Integer concurrency, Integer queueTimeoutMillis, Integer intraOpThreads, String arena,
                         Boolean calibrate, List<Integer> calibrationLevels) {
    }

    /** One project: a name agents use, a description they read, and where its documents are. */
    public record ProjectConfig(String name, String description, Source source, String language,
                                String retrieval, Gate gate, Boolean includeAddenda, RerankerRef reranker) {

        public ProjectConfig(String name, String description, Source source, String language, String retrieval,
                             Gate gate, Boolean includeAddenda) {
            this(name, description, source, language, retrieval, gate, includeAddenda, null);
        }
    }

    /** Where a project's documents are: a directory and which files below it (globs), or the database. */
    public record Source(String directory, List<String> include, Boolean database) {
        public Source(String directory) {
            this(directory, null, null);
        }

        public Source(String directory, List<String> include) {
            this(directory, include, null);
        }
    }

    public record Gate(Double threshold) {
    }
}
