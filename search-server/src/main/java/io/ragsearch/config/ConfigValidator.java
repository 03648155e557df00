package io.ragsearch.config;

import io.ragsearch.contract.settings.Bounds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules a configuration must meet, checked on the values the file (and the environment) give;
 * absent values are the components' defaults and need no check. Every problem at once, each with
 * its field path, so a person fixes the file in one go.
 */
public final class ConfigValidator {

    // The bounds and names are the contract's (io.ragsearch.contract.settings.Bounds): the operator checks the same.
    private static final Pattern PROJECT_NAME = Bounds.PROJECT_NAME;
    private static final int MAX_SEQ_LEN_MIN = Bounds.MAX_SEQ_LEN_MIN;
    private static final int MAX_SEQ_LEN_MAX = Bounds.MAX_SEQ_LEN_MAX;
    private static final List<String> LANGUAGES = Bounds.LANGUAGES;
    private static final List<String> RETRIEVAL_MODES = Bounds.RETRIEVAL_MODES;
    private static final List<String> POOLINGS = Bounds.POOLINGS;
    private static final List<String> ARENAS = Bounds.ARENAS;

    private ConfigValidator() {
    }

    /** Throws a {@link ConfigException} listing every problem of the whole configuration. */
    public static void validate(ServerConfig c) {
        throwIfAny(problems(c));
    }

    /** Only the models section checked, for commands (ingest) that read nothing else from the file. */
    public static void validateModels(ServerConfig c) {
        List<String> problems = new ArrayList<>();
        modelProblems(problems, c);
        throwIfAny(problems);
    }

    public static List<String> problems(ServerConfig c) {
        List<String> problems = new ArrayList<>();
        ServerConfig.Server s = c.server();
        if (s != null) {
            checkPort(problems, "server.mcpPort", s.mcpPort());
            checkPort(problems, "server.adminPort", s.adminPort());
            if (s.mcpPort() != null && s.mcpPort() != 0 && s.mcpPort().equals(s.adminPort())) {
                problems.add("server.mcpPort and server.adminPort must differ (both " + s.mcpPort() + ")");
            }
            checkPositive(problems, "server.toolThreads", s.toolThreads());
            checkPositive(problems, "server.toolQueue", s.toolQueue());
            checkPositive(problems, "server.maxInFlightRequests", s.maxInFlightRequests());
            checkPositive(problems, "server.maxQueryChars", s.maxQueryChars());
        }
        ServerConfig.Rerank r = c.rerank();
        if (r != null) {
            checkPositive(problems, "rerank.concurrency (RAGSEARCH_RERANK_CONCURRENCY)", r.concurrency());
            checkPositive(problems, "rerank.queueTimeoutMillis", r.queueTimeoutMillis());
            checkPositive(problems, "rerank.intraOpThreads", r.intraOpThreads());
            if (r.calibrationLevels() != null) {
                r.calibrationLevels().forEach(k -> checkPositive(problems, "rerank.calibrationLevels", k));
            }
            checkChoice(problems, "rerank.arena", r.arena(), ARENAS);
        }
        modelProblems(problems, c);
        if (c.database() != null) {
            checkPositive(problems, "database.pollSeconds", c.database().pollSeconds());
        }
        List<ServerConfig.ProjectConfig> projects = ConfigOverrides.projects(c);
        boolean database = ConfigOverrides.databaseConfigured(c);
        if (projects.isEmpty() && !database) {
            problems.add("no projects: give at least one under projects (or --project NAME=DIR), or a database");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < projects.size(); i++) {
            projectProblems(problems, "projects[" + i + "]", projects.get(i), names, database);
        }
        return problems;
    }

    private static void projectProblems(List<String> problems, String where, ServerConfig.ProjectConfig p, Set<String> names,
                                        boolean database) {
        if (p.name() == null || !PROJECT_NAME.matcher(p.name()).matches()) {
            problems.add(where + ".name must be lower-case letters, digits, '.', '_' or '-' (got " + p.name() + ")");
        } else if (!names.add(p.name())) {
            problems.add(where + ".name '" + p.name() + "' is used twice");
        }
        if (ConfigOverrides.fromDatabase(p)) {
            if (!database) {
                problems.add(where + ".source.database needs database.url (or RAGSEARCH_DB_URL)");
            }
        } else if (p.source() == null || p.source().directory() == null || p.source().directory().isBlank()) {
            problems.add(where + ".source.directory is required (or source.database: true)");
        }
        checkChoice(problems, where + ".language", p.language(), LANGUAGES);
        checkChoice(problems, where + ".retrieval", p.retrieval(), RETRIEVAL_MODES);
        ServerConfig.RerankerRef r = p.reranker();
        if (r != null) {
            if ((r.builtin() == null) == (r.path() == null)) {
                problems.add(where + ".reranker needs exactly one of builtin or path");
            }
            checkMaxSeqLen(problems, where + ".reranker.maxSeqLen", r.maxSeqLen());
        }
        Double t = p.gate() == null ? null : p.gate().threshold();
        if (t != null && (t.isNaN() || t < Bounds.GATE_MIN || t > Bounds.GATE_MAX)) {
            problems.add(where + ".gate.threshold must lie in [0, 1] (got " + t + ")");
        }
    }

    private static void modelProblems(List<String> problems, ServerConfig c) {
        ServerConfig.ModelRef m = c.models() == null ? null : c.models().embedding();
        if (m == null) {
            return;
        }
        String where = "models.embedding";
        if ((m.builtin() == null) == (m.path() == null)) {
            problems.add(where + " needs exactly one of builtin or path");
        } else if (m.path() != null && m.path().isBlank()) {
            problems.add(where + ".path is empty");
        }
        checkChoice(problems, where + ".pooling", m.pooling(), POOLINGS);
        checkMaxSeqLen(problems, where + ".maxSeqLen", m.maxSeqLen());
        if (m.output() != null && m.output().isBlank()) {
            problems.add(where + ".output must name a model output, e.g. last_hidden_state or sentence_embedding (got a blank name)");
        }
    }

    private static void throwIfAny(List<String> problems) {
        if (!problems.isEmpty()) {
            throw new ConfigException("invalid configuration:\n  - " + String.join("\n  - ", problems));
        }
    }

    private static void checkPort(List<String> problems, String field, Integer port) {
        if (port != null && (port < Bounds.PORT_MIN || port > Bounds.PORT_MAX)) {
            problems.add(field + " must be 0..65535 (0 = any free port), got " + port);
        }
    }

    /** One bound for embedding models and cross-encoders: both are encoders with a position limit. */
    private static void checkMaxSeqLen(List<String> problems, String field, Integer value) {
        if (value != null && (value < MAX_SEQ_LEN_MIN || value > MAX_SEQ_LEN_MAX)) {
            problems.add(field + " must be " + MAX_SEQ_LEN_MIN + ".." + MAX_SEQ_LEN_MAX + " tokens (got " + value + ")");
        }
    }

    private static void checkPositive(List<String> problems, String field, Integer value) {
        if (value != null && value < 1) {
            problems.add(field + " must be at least 1, got " + value);
        }
    }

    private static void checkChoice(List<String> problems, String field, String value, List<String> allowed) {
        if (value != null && !allowed.contains(value.toLowerCase(Locale.ROOT))) {
            problems.add(field + " must be one of " + allowed + " (got " + value + ")");
        }
    }
}
