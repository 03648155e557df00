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
        return problems;
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
