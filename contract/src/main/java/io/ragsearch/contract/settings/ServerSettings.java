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
public record ServerSettings(Server server, Models models, Rerank rerank, Database database, List<Project> projects, Auth auth) {

    /** A file with nothing in it: every default. */
    public static final ServerSettings EMPTY = new ServerSettings(null, null, null, null, null, null);

    public ServerSettings withServer(Server value) {
        return new ServerSettings(value, models, rerank, database, projects, auth);
    }

    public ServerSettings withModels(Models value) {
        return new ServerSettings(server, value, rerank, database, projects, auth);
    }

    public ServerSettings withRerank(Rerank value) {
        return new ServerSettings(server, models, value, database, projects, auth);
    }

    public ServerSettings withDatabase(Database value) {
        return new ServerSettings(server, models, rerank, value, projects, auth);
    }

    public ServerSettings withProjects(List<Project> value) {
        return new ServerSettings(server, models, rerank, database, value, auth);
    }

    public ServerSettings withAuth(Auth value) {
        return new ServerSettings(server, models, rerank, database, projects, value);
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
     * makes vectors: {@code pooling} mean | cls | last, {@code normalize} (L2), {@code maxSeqLen} (tokens),
     * {@code queryPrefix} / {@code passagePrefix} (e5: "query: " / "passage: "), {@code output}
     * (the model output to read), {@code dimension} (the vector length the model must give: a
     * declared expectation, checked when the model loads).
     */
    public record ModelRef(String builtin, String path, String pooling, Boolean normalize, Integer maxSeqLen,
                           String queryPrefix, String passagePrefix, String output, Integer dimension) {

        public static final ModelRef EMPTY = new ModelRef(null, null, null, null, null, null, null, null, null);

        /** A built-in model by name, read as its defaults say. */
        public static ModelRef ofBuiltin(String name) {
            return EMPTY.withBuiltin(name);
        }

        /** A model directory, read as the defaults say. */
        public static ModelRef ofPath(String directory) {
            return EMPTY.withPath(directory);
        }

        public ModelRef withBuiltin(String value) {
            return new ModelRef(value, path, pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, output, dimension);
        }

        public ModelRef withPath(String value) {
            return new ModelRef(builtin, value, pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, output, dimension);
        }

        public ModelRef withPooling(String value) {
            return new ModelRef(builtin, path, value, normalize, maxSeqLen, queryPrefix, passagePrefix, output, dimension);
        }

        public ModelRef withNormalize(Boolean value) {
            return new ModelRef(builtin, path, pooling, value, maxSeqLen, queryPrefix, passagePrefix, output, dimension);
        }

        public ModelRef withMaxSeqLen(Integer value) {
            return new ModelRef(builtin, path, pooling, normalize, value, queryPrefix, passagePrefix, output, dimension);
        }

        public ModelRef withQueryPrefix(String value) {
            return new ModelRef(builtin, path, pooling, normalize, maxSeqLen, value, passagePrefix, output, dimension);
        }

        public ModelRef withPassagePrefix(String value) {
            return new ModelRef(builtin, path, pooling, normalize, maxSeqLen, queryPrefix, value, output, dimension);
        }

        public ModelRef withOutput(String value) {
            return new ModelRef(builtin, path, pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, value, dimension);
        }

        public ModelRef withDimension(Integer value) {
            return new ModelRef(builtin, path, pooling, normalize, maxSeqLen, queryPrefix, passagePrefix, output, value);
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

    /**
     * Rerank resources shared by all projects of the process. {@code retune}, when present, lets
     * the server move its permits itself when its memory limit changes in place (see {@link Retune}).
     */
    public record Rerank(Integer concurrency, Integer queueTimeoutMillis, Integer intraOpThreads, String arena,
                         Boolean calibrate, List<Integer> calibrationLevels, Retune retune) {

        public static final Rerank EMPTY = new Rerank(null, null, null, null, null, null, null);

        public Rerank withConcurrency(Integer value) {
            return new Rerank(value, queueTimeoutMillis, intraOpThreads, arena, calibrate, calibrationLevels, retune);
        }

        public Rerank withQueueTimeoutMillis(Integer value) {
            return new Rerank(concurrency, value, intraOpThreads, arena, calibrate, calibrationLevels, retune);
        }

        public Rerank withIntraOpThreads(Integer value) {
            return new Rerank(concurrency, queueTimeoutMillis, value, arena, calibrate, calibrationLevels, retune);
        }

        public Rerank withArena(String value) {
            return new Rerank(concurrency, queueTimeoutMillis, intraOpThreads, value, calibrate, calibrationLevels, retune);
        }

        public Rerank withCalibrate(Boolean value) {
            return new Rerank(concurrency, queueTimeoutMillis, intraOpThreads, arena, value, calibrationLevels, retune);
        }

        public Rerank withCalibrationLevels(List<Integer> value) {
            return new Rerank(concurrency, queueTimeoutMillis, intraOpThreads, arena, calibrate, value, retune);
        }

        public Rerank withRetune(Retune value) {
            return new Rerank(concurrency, queueTimeoutMillis, intraOpThreads, arena, calibrate, calibrationLevels, value);
        }
    }

    /**
     * What the operator asked of the rerank concurrency, so that the server can apply the same
     * formula (contract budget.RerankBudget) itself when its memory limit is resized in place:
     * {@code fixed} null is "auto", {@code force} keeps a fixed value past the safe one,
     * {@code headroomPercent} as in the spec, {@code cpuLimitMillis} the pod's CPU limit when its
     * cgroup does not say (null: none).
     */
    public record Retune(Integer fixed, Boolean force, Integer headroomPercent, Integer cpuLimitMillis) {
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

    /**
     * A project's reranker: the cost stand-in by name or a cross-encoder directory; {@code scoreMapping}
     * (auto | sigmoid | softmax | none) and {@code positiveClass} say how the model's logits become a
     * relevance in [0, 1] (auto: sigmoid of one logit, softmax of class 1 of two).
     */
    public record RerankerRef(String builtin, String path, Integer maxSeqLen, String scoreMapping, Integer positiveClass) {

        public static final RerankerRef EMPTY = new RerankerRef(null, null, null, null, null);

        public static RerankerRef ofBuiltin(String name) {
            return EMPTY.withBuiltin(name);
        }

        public static RerankerRef ofPath(String directory) {
            return EMPTY.withPath(directory);
        }

        public RerankerRef withBuiltin(String value) {
            return new RerankerRef(value, path, maxSeqLen, scoreMapping, positiveClass);
        }

        public RerankerRef withPath(String value) {
            return new RerankerRef(builtin, value, maxSeqLen, scoreMapping, positiveClass);
        }

        public RerankerRef withMaxSeqLen(Integer value) {
            return new RerankerRef(builtin, path, value, scoreMapping, positiveClass);
        }

        public RerankerRef withScoreMapping(String value) {
            return new RerankerRef(builtin, path, maxSeqLen, value, positiveClass);
        }

        public RerankerRef withPositiveClass(Integer value) {
            return new RerankerRef(builtin, path, maxSeqLen, scoreMapping, value);
        }
    }

    /**
     * Who may call the MCP port and which projects each caller may use. {@code mode}: static (one
     * bearer token, RAGSEARCH_AUTH_TOKEN, every project) or jwt (tokens this server verifies itself:
     * {@code issuer}, {@code audiences} (RFC 8707: at least one must be in the token's aud),
     * {@code jwksUrl} (absent: OIDC discovery from the issuer), {@code caFile} / {@code tokenFile}
     * (the CA bundle and bearer token for fetching the keys, e.g. the Kubernetes API server's),
     * {@code algorithms} (allow-list), {@code clockSkewSeconds}, {@code groupsClaim}, {@code scopes}
     * (every one required in the token's scope), {@code resource} (this server's identifier in the
     * protected resource metadata) and {@code access} (who may use which projects).
     */
    public record Auth(String mode, String issuer, List<String> audiences, String jwksUrl, String caFile, String tokenFile, List<String> algorithms, Integer clockSkewSeconds, String groupsClaim, List<String> scopes, String resource, List<Access> access) {

        public static final Auth EMPTY = new Auth(null, null, null, null, null, null, null, null, null, null, null, null);

        public Auth withMode(String value) {
            return new Auth(value, issuer, audiences, jwksUrl, caFile, tokenFile, algorithms, clockSkewSeconds, groupsClaim, scopes, resource, access);
        }

        public Auth withIssuer(String value) {
            return new Auth(mode, value, audiences, jwksUrl, caFile, tokenFile, algorithms, clockSkewSeconds, groupsClaim, scopes, resource, access);
        }

        public Auth withAudiences(List<String> value) {
            return new Auth(mode, issuer, value, jwksUrl, caFile, tokenFile, algorithms, clockSkewSeconds, groupsClaim, scopes, resource, access);
        }

        public Auth withJwksUrl(String value) {
            return new Auth(mode, issuer, audiences, value, caFile, tokenFile, algorithms, clockSkewSeconds, groupsClaim, scopes, resource, access);
        }

        public Auth withCaFile(String value) {
            return new Auth(mode, issuer, audiences, jwksUrl, value, tokenFile, algorithms, clockSkewSeconds, groupsClaim, scopes, resource, access);
        }

        public Auth withTokenFile(String value) {
            return new Auth(mode, issuer, audiences, jwksUrl, caFile, value, algorithms, clockSkewSeconds, groupsClaim, scopes, resource, access);
        }

        public Auth withAlgorithms(List<String> value) {
            return new Auth(mode, issuer, audiences, jwksUrl, caFile, tokenFile, value, clockSkewSeconds, groupsClaim, scopes, resource, access);
        }

        public Auth withClockSkewSeconds(Integer value) {
            return new Auth(mode, issuer, audiences, jwksUrl, caFile, tokenFile, algorithms, value, groupsClaim, scopes, resource, access);
        }

        public Auth withGroupsClaim(String value) {
            return new Auth(mode, issuer, audiences, jwksUrl, caFile, tokenFile, algorithms, clockSkewSeconds, value, scopes, resource, access);
        }

        public Auth withScopes(List<String> value) {
            return new Auth(mode, issuer, audiences, jwksUrl, caFile, tokenFile, algorithms, clockSkewSeconds, groupsClaim, value, resource, access);
        }

        public Auth withResource(String value) {
            return new Auth(mode, issuer, audiences, jwksUrl, caFile, tokenFile, algorithms, clockSkewSeconds, groupsClaim, scopes, value, access);
        }

        public Auth withAccess(List<Access> value) {
            return new Auth(mode, issuer, audiences, jwksUrl, caFile, tokenFile, algorithms, clockSkewSeconds, groupsClaim, scopes, resource, value);
        }
    }

    /**
     * One access rule: the {@code projects} (names, or "*" for all) that callers matching any of
     * {@code serviceAccounts} ("namespace:name", or "namespace:*"), {@code groups}, {@code subjects}
     * (the token's sub) or {@code claims} (a claim holding a value) may use.
     */
    public record Access(List<String> projects, List<String> serviceAccounts, List<String> groups, List<String> subjects, List<ClaimMatch> claims) {

        public static final Access EMPTY = new Access(null, null, null, null, null);

        public Access withProjects(List<String> value) {
            return new Access(value, serviceAccounts, groups, subjects, claims);
        }

        public Access withServiceAccounts(List<String> value) {
            return new Access(projects, value, groups, subjects, claims);
        }

        public Access withGroups(List<String> value) {
            return new Access(projects, serviceAccounts, value, subjects, claims);
        }

        public Access withSubjects(List<String> value) {
            return new Access(projects, serviceAccounts, groups, value, claims);
        }

        public Access withClaims(List<ClaimMatch> value) {
            return new Access(projects, serviceAccounts, groups, subjects, value);
        }
    }

    /** A claim of the token (a top-level name) that holds {@code value}: equal to it, or an array containing it. */
    public record ClaimMatch(String name, String value) {
    }
}
