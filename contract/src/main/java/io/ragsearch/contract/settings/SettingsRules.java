package io.ragsearch.contract.settings;

import io.ragsearch.contract.AdminEndpoints;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The one rule set for a server configuration. The server checks the file it reads (after
 * environment overrides), the operator checks the file it writes and its spec's fields with the
 * single-field rules. Every problem is listed, one line each, led by its field path, so a person
 * fixes a file in one go.
 */
public final class SettingsRules {
    private SettingsRules() {
    }

    public static List<String> problems(ServerSettings s) {
        List<String> problems = new ArrayList<>();
        ServerSettings.Server server = s.server();
        if (server != null) {
            addIfAny(problems, port("server.mcpPort", server.mcpPort()));
            addIfAny(problems, port("server.adminPort", server.adminPort()));
            int mcp = Objects.requireNonNullElse(server.mcpPort(), AdminEndpoints.DEFAULT_MCP_PORT);
            int admin = Objects.requireNonNullElse(server.adminPort(), AdminEndpoints.DEFAULT_ADMIN_PORT);
            if (mcp != 0 && mcp == admin) {
                problems.add("server.mcpPort and server.adminPort must differ (both " + mcp + ")");
            }
            positive(problems, "server.toolThreads", server.toolThreads());
            atMost(problems, "server.toolThreads", server.toolThreads(), Bounds.TOOL_THREADS_MAX,
                    "tool work is CPU-bound: more threads than cores only wait");
            positive(problems, "server.toolQueue", server.toolQueue());
            atMost(problems, "server.toolQueue", server.toolQueue(), Bounds.TOOL_QUEUE_MAX,
                    "calls waiting for a tool thread; the queue is allocated at start, past it calls are answered \"busy, retry\"");
            positive(problems, "server.maxInFlightRequests", server.maxInFlightRequests());
            atMost(problems, "server.maxInFlightRequests", server.maxInFlightRequests(), Bounds.MAX_IN_FLIGHT_MAX,
                    "every tool thread and queue place at their maximum");
            positive(problems, "server.maxQueryChars", server.maxQueryChars());
        }
        ServerSettings.Rerank rerank = s.rerank();
        if (rerank != null) {
            positive(problems, "rerank.concurrency (RAGSEARCH_RERANK_CONCURRENCY)", rerank.concurrency());
            atMost(problems, "rerank.concurrency (RAGSEARCH_RERANK_CONCURRENCY)", rerank.concurrency(), Bounds.TOOL_THREADS_MAX,
                    "a rerank lane thread for each");
            positive(problems, "rerank.queueTimeoutMillis", rerank.queueTimeoutMillis());
            addIfAny(problems, intraOpThreads("rerank.intraOpThreads", rerank.intraOpThreads()));
            if (rerank.calibrationLevels() != null) {
                rerank.calibrationLevels().forEach(k -> positive(problems, "rerank.calibrationLevels", k));
            }
            choice(problems, "rerank.arena", rerank.arena(), Bounds.ARENAS);
            ServerSettings.Retune retune = rerank.retune();
            if (retune != null) {
                positive(problems, "rerank.retune.fixed", retune.fixed());
                positive(problems, "rerank.retune.cpuLimitMillis", retune.cpuLimitMillis());
                if (retune.headroomPercent() != null && (retune.headroomPercent() < 0 || retune.headroomPercent() >= 100)) {
                    problems.add("rerank.retune.headroomPercent must be in [0, 100), got " + retune.headroomPercent());
                }
            }
        }
        if (s.models() != null && s.models().embedding() != null) {
            embedding(problems, "models.embedding", s.models().embedding());
        }
        boolean database = s.database() != null && s.database().url() != null && !s.database().url().isBlank();
        if (s.database() != null) {
            positive(problems, "database.pollSeconds", s.database().pollSeconds());
        }
        List<ServerSettings.Project> projects = s.projects() == null ? List.of() : s.projects();
        if (projects.isEmpty() && !database) {
            problems.add("no projects: give at least one under projects (or --project NAME=DIR), or a database");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < projects.size(); i++) {
            project(problems, "projects[" + i + "]", projects.get(i), database, names);
        }
        if (s.auth() != null) {
            problems.addAll(authProblems(s.auth()));
        }
        return problems;
    }

    /** The auth section: static wants nothing else; jwt wants an issuer, an audience and at least one access rule. */
    public static List<String> authProblems(ServerSettings.Auth a) {
        List<String> problems = new ArrayList<>();
        String mode = a.mode() == null ? null : a.mode().toLowerCase(Locale.ROOT);
        if (mode == null) {
            problems.add("auth.mode is required: static (the bearer token of RAGSEARCH_AUTH_TOKEN) or jwt (tokens checked against a JWKS)");
            return problems;
        }
        choice(problems, "auth.mode", a.mode(), Bounds.AUTH_MODES);
        if (mode.equals("static")) {
            if (a.issuer() != null || a.audiences() != null || a.jwksUrl() != null || a.access() != null || a.scopes() != null) {
                problems.add("auth.mode static takes its token from RAGSEARCH_AUTH_TOKEN and serves every project: "
                        + "issuer, audiences, jwksUrl, scopes and access belong to mode jwt");
            }
            return problems;
        }
        if (!mode.equals("jwt")) {
            return problems;
        }
        addIfAny(problems, httpsUrl("auth.issuer", a.issuer(), true));
        if (a.audiences() == null || a.audiences().isEmpty() || a.audiences().stream().anyMatch(v -> v == null || v.isBlank())) {
            problems.add("auth.audiences needs at least one non-blank audience: a token must have been issued for this server (RFC 8707)");
        }
        addIfAny(problems, httpsUrl("auth.jwksUrl", a.jwksUrl(), false));
        if (a.algorithms() != null) {
            if (a.algorithms().isEmpty()) {
                problems.add("auth.algorithms is empty: leave it out for the default " + Bounds.JWT_ALGORITHMS);
            }
            for (String alg : a.algorithms()) {
                if (!Bounds.JWT_ALGORITHMS.contains(alg)) {
                    problems.add("auth.algorithms: '" + cut(String.valueOf(alg)) + "' is not allowed; one of " + Bounds.JWT_ALGORITHMS
                            + " (none and HS* are refused: no signature, or a public key used as a shared secret)");
                }
            }
        }
        Integer skew = a.clockSkewSeconds();
        if (skew != null && (skew < 0 || skew > Bounds.CLOCK_SKEW_MAX_SECONDS)) {
            problems.add("auth.clockSkewSeconds must be 0.." + Bounds.CLOCK_SKEW_MAX_SECONDS + ", got " + skew);
        }
        blank(problems, "auth.caFile", a.caFile());
        blank(problems, "auth.tokenFile", a.tokenFile());
        blank(problems, "auth.groupsClaim", a.groupsClaim());
        blank(problems, "auth.resource", a.resource());
        if (a.scopes() != null && a.scopes().stream().anyMatch(v -> v == null || v.isBlank() || v.contains(" "))) {
            problems.add("auth.scopes: each scope is one non-blank word");
        }
        List<ServerSettings.Access> access = a.access() == null ? List.of() : a.access();
        if (access.isEmpty()) {
            problems.add("auth.access is empty: with mode jwt no caller could use any project; add a rule (projects and who)");
        }
        for (int i = 0; i < access.size(); i++) {
            access(problems, "auth.access[" + i + "]", access.get(i));
        }
        return problems;
    }

    private static void access(List<String> problems, String where, ServerSettings.Access r) {
        if (r == null) {
            problems.add(where + " is empty");
            return;
        }
        if (r.projects() == null || r.projects().isEmpty()) {
            problems.add(where + ".projects needs at least one project name (or \"*\" for all)");
        } else {
            for (String p : r.projects()) {
                if (!"*".equals(p)) {
                    addIfAny(problems, projectName(where + ".projects", p));
                }
            }
        }
        int who = size(r.serviceAccounts()) + size(r.groups()) + size(r.subjects()) + size(r.claims());
        if (who == 0) {
            problems.add(where + " names nobody: give serviceAccounts, groups, subjects or claims");
        }
        if (r.serviceAccounts() != null) {
            for (String sa : r.serviceAccounts()) {
                if (sa == null || !Bounds.SERVICE_ACCOUNT.matcher(sa).matches()) {
                    problems.add(where + ".serviceAccounts: '" + cut(String.valueOf(sa)) + "' is not namespace:name (or namespace:*)");
                }
            }
        }
        noBlanks(problems, where + ".groups", r.groups());
        noBlanks(problems, where + ".subjects", r.subjects());
        if (r.claims() != null) {
            for (ServerSettings.ClaimMatch c : r.claims()) {
                if (c == null || c.name() == null || c.name().isBlank() || c.value() == null) {
                    problems.add(where + ".claims: each needs a name and a value");
                }
            }
        }
    }

    /** Null when absent (and not required) or an http(s) URL without user information; plain http only to a loopback host. */
    private static String httpsUrl(String field, String value, boolean required) {
        if (value == null) {
            return required ? field + " is required" : null;
        }
        java.net.URI uri;
        try {
            uri = new java.net.URI(value);
        } catch (java.net.URISyntaxException e) {
            return field + " is not a URL: '" + cut(value) + "'";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || uri.getUserInfo() != null || uri.getFragment() != null
                || !(scheme.equals("https") || scheme.equals("http"))) {
            return field + " must be an https URL with a host and no user information or fragment (got '" + cut(value) + "')";
        }
        if (scheme.equals("http") && !loopback(uri.getHost())) {
            return field + " must be https (plain http only to a loopback address): keys and issuers read over plain http can be forged on the way";
        }
        return null;
    }

    private static boolean loopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
    }

    private static void blank(List<String> problems, String field, String value) {
        if (value != null && value.isBlank()) {
            problems.add(field + " is blank: leave it out or give a value");
        }
    }

    private static void noBlanks(List<String> problems, String field, List<String> values) {
        if (values != null && values.stream().anyMatch(v -> v == null || v.isBlank())) {
            problems.add(field + " holds a blank entry");
        }
    }

    private static int size(List<?> list) {
        return list == null ? 0 : list.size();
    }

    private static void project(List<String> problems, String where, ServerSettings.Project p, boolean database,
                                Set<String> names) {
        if (p == null) {
            problems.add(where + " is empty");
            return;
        }
        String nameProblem = projectName(where + ".name", p.name());
        if (nameProblem != null) {
            problems.add(nameProblem);
        } else if (!names.add(p.name())) {
            problems.add(where + ".name '" + p.name() + "' is used twice");
        }
        ServerSettings.Source source = p.source();
        if (source != null && Boolean.TRUE.equals(source.database())) {
            if (!database) {
                problems.add(where + ".source.database needs database.url (or RAGSEARCH_DB_URL)");
            }
            // What a directory project reads; the database holds what ingest wrote (its --include and --include-addenda).
            if (source.directory() != null || source.include() != null || p.includeAddenda() != null) {
                problems.add(where + " reads the database: source.directory, source.include and includeAddenda "
                        + "apply to directory projects only (ingest --include / --include-addenda choose what the database holds)");
            }
        } else if (source == null || source.directory() == null || source.directory().isBlank()) {
            problems.add(where + ".source.directory is required (or source.database: true)");
        }
        choice(problems, where + ".language", p.language(), Bounds.LANGUAGES);
        choice(problems, where + ".retrieval", p.retrieval(), Bounds.RETRIEVAL_MODES);
        ServerSettings.RerankerRef r = p.reranker();
        if (r != null) {
            if ((r.builtin() == null) == (r.path() == null)) {
                problems.add(where + ".reranker needs exactly one of builtin or path");
            }
            addIfAny(problems, maxSeqLen(where + ".reranker.maxSeqLen", r.maxSeqLen()));
            addIfAny(problems, scoreMapping(where + ".reranker", r.scoreMapping(), r.positiveClass()));
            if (r.builtin() != null && (r.scoreMapping() != null || r.positiveClass() != null)) {
                problems.add(where + ".reranker: scoreMapping and positiveClass are for a cross-encoder of your own (path); "
                        + "a built-in is a cost stand-in whose scores are never used");
            }
        }
        if (p.gate() != null) {
            addIfAny(problems, gateThreshold(where + ".gate.threshold", p.gate().threshold()));
        }
    }

    /** The embedding model's part: also what `ingest`, which reads nothing else, checks. */
    public static List<String> embeddingProblems(ServerSettings s) {
        List<String> problems = new ArrayList<>();
        if (s.models() != null && s.models().embedding() != null) {
            embedding(problems, "models.embedding", s.models().embedding());
        }
        return problems;
    }

    private static void embedding(List<String> problems, String where, ServerSettings.ModelRef m) {
        if ((m.builtin() == null) == (m.path() == null)) {
            problems.add(where + " needs exactly one of builtin or path");
        } else if (m.path() != null && m.path().isBlank()) {
            problems.add(where + ".path is empty");
        }
        choice(problems, where + ".pooling", m.pooling(), Bounds.POOLINGS);
        addIfAny(problems, maxSeqLen(where + ".maxSeqLen", m.maxSeqLen()));
        if (m.output() != null && m.output().isBlank()) {
            problems.add(where + ".output must name a model output, e.g. last_hidden_state or sentence_embedding (got a blank name)");
        }
        addIfAny(problems, dimension(where + ".dimension", m.dimension()));
    }

    /** Null when absent or 1..{@value Bounds#DIMENSION_MAX}, else the problem. */
    public static String dimension(String field, Integer value) {
        if (value != null && (value < 1 || value > Bounds.DIMENSION_MAX)) {
            return field + " must be 1.." + Bounds.DIMENSION_MAX + " (the length of the model's vectors), got " + value;
        }
        return null;
    }

    /**
     * Null when the mapping is absent or known and the positive class fits it, else the problem:
     * softmax or a positive class needs the class the relevance is read from, auto picks it itself.
     */
    public static String scoreMapping(String where, String mapping, Integer positiveClass) {
        String choice = choice(where + ".scoreMapping", mapping, Bounds.SCORE_MAPPINGS);
        if (choice != null) {
            return choice;
        }
        if (positiveClass != null && (positiveClass < 0 || positiveClass > Bounds.POSITIVE_CLASS_MAX)) {
            return where + ".positiveClass must be 0.." + Bounds.POSITIVE_CLASS_MAX + " (an index into the model's logits), got " + positiveClass;
        }
        if (positiveClass != null && (mapping == null || mapping.equalsIgnoreCase("auto"))) {
            return where + ".positiveClass needs scoreMapping sigmoid, softmax or none: auto reads class 1 of two itself";
        }
        return null;
    }

    /** Null when the name is good, else the problem. */
    public static String projectName(String field, String name) {
        if (name == null || !Bounds.PROJECT_NAME.matcher(name).matches()) {
            return field + " must be 1 to " + Bounds.PROJECT_NAME_MAX_LENGTH
                    + " lower-case letters, digits, '.', '_' or '-', starting with a letter or digit (got "
                    + (name == null ? "nothing" : "'" + cut(name) + "'") + ")";
        }
        return null;
    }

    /** Null when absent or in range, else the problem. */
    public static String maxSeqLen(String field, Integer value) {
        if (value != null && (value < Bounds.MAX_SEQ_LEN_MIN || value > Bounds.MAX_SEQ_LEN_MAX)) {
            return field + " must be " + Bounds.MAX_SEQ_LEN_MIN + ".." + Bounds.MAX_SEQ_LEN_MAX + " tokens (got " + value + ")";
        }
        return null;
    }

    /** Null when absent or in [0, 1], else the problem. */
    public static String gateThreshold(String field, Double t) {
        if (t != null && (t.isNaN() || t < Bounds.GATE_MIN || t > Bounds.GATE_MAX)) {
            return field + " must lie in [0, 1] (got " + t + ")";
        }
        return null;
    }

    /** Null when absent or one of the allowed words (any case), else the problem. */
    public static String choice(String field, String value, List<String> allowed) {
        if (value != null && !allowed.contains(value.toLowerCase(Locale.ROOT))) {
            return field + " must be one of " + allowed + " (got '" + cut(value) + "')";
        }
        return null;
    }

    private static void choice(List<String> problems, String field, String value, List<String> allowed) {
        addIfAny(problems, choice(field, value, allowed));
    }

    /** Null when absent or a port (0: any free one), else the problem. */
    private static String port(String field, Integer port) {
        if (port != null && (port < Bounds.PORT_MIN || port > Bounds.PORT_MAX)) {
            return field + " must be " + Bounds.PORT_MIN + ".." + Bounds.PORT_MAX + " (0 = any free port), got " + port;
        }
        return null;
    }

    /** Null when absent or 1..{@value Bounds#INTRA_OP_THREADS_MAX}, else the problem. */
    public static String intraOpThreads(String field, Integer threads) {
        if (threads != null && (threads < 1 || threads > Bounds.INTRA_OP_THREADS_MAX)) {
            return field + " must be 1.." + Bounds.INTRA_OP_THREADS_MAX + ", got " + threads;
        }
        return null;
    }

    private static void positive(List<String> problems, String field, Integer value) {
        if (value != null && value < 1) {
            problems.add(field + " must be at least 1, got " + value);
        }
    }

    private static void atMost(List<String> problems, String field, Integer value, int max, String why) {
        if (value != null && value > max) {
            problems.add(field + " must be at most " + max + " (" + why + "), got " + value);
        }
    }

    private static void addIfAny(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }

    /** Echoed values are cut: a 100 KB name in an error line helps nobody. */
    private static String cut(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "…";
    }
}
