package io.ragsearch.contract.settings;

import java.util.List;

/**
 * The search server's configuration file (YAML at RAGSEARCH_CONFIG or {@code --config}) as plain
 * records: what the operator writes and the server reads. Every field may be absent (null); the
 * server resolves defaults once at start-up, and {@link SettingsRules} is the one rule set both
 * programs check a file against. No logic here, so both programs' JSON libraries bind it alike.
 */
public record ServerSettings(Server server, Models models, Rerank rerank, Database database, List<Project> projects) {

    /** Listener, threading and transport-security settings. */
    public record Server(String bindAddress, Integer mcpPort, Integer adminPort, Integer toolThreads,
                         Integer toolQueue, Integer maxInFlightRequests, Integer maxQueryChars,
                         List<String> allowedHosts, List<String> allowedOrigins) {
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
    }

    /** The corpus record (PostgreSQL); {@code pollSeconds}: how often corpus versions are checked besides LISTEN. */
    public record Database(String url, String user, String password, Integer pollSeconds) {
    }

    /** Rerank resources shared by all projects of the process. */
    public record Rerank(Integer concurrency, Integer queueTimeoutMillis, Integer intraOpThreads, String arena,
                         Boolean calibrate, List<Integer> calibrationLevels) {
    }

    /** One project: a name agents use, a description they read, and where its documents are. */
    public record Project(String name, String description, Source source, String language, String retrieval,
                          Gate gate, Boolean includeAddenda, RerankerRef reranker) {
    }

    /** A directory and which files below it (globs), or the database. */
    public record Source(String directory, List<String> include, Boolean database) {
    }

    public record Gate(Double threshold) {
    }

    /** A project's reranker: the cost stand-in by name or a cross-encoder directory. */
    public record RerankerRef(String builtin, String path, Integer maxSeqLen) {
    }
}
