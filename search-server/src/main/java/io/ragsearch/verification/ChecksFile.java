package io.ragsearch.verification;

import io.ragsearch.eval.ArticleRef;
import io.ragsearch.eval.Question;
import io.ragsearch.eval.QuestionFile;
import io.ragsearch.eval.QuestionFile.RawQuestion;
import io.ragsearch.eval.QuestionFile.RawRef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;

/**
 * A checks file (YAML, docs/verify.md): a question file of {@code ragsearch eval} — whose
 * {@code questions} become {@code search} checks — plus {@code checks}, each with an id, a kind
 * and its expectation. Read as strictly as a question file: an unknown field, a field of another
 * kind, a duplicate key or id, a check without an expectation is an error naming every problem,
 * and nothing runs.
 */
public record ChecksFile(String set, String origin, List<Check> checks) {

    /** Default depth of a search check: the search tool's own default top_k. */
    public static final int DEFAULT_WITHIN = 5;
    static final int DEFAULT_HEALTH_SEARCHES = 8;
    static final int DEFAULT_HEALTH_BUDGET_MILLIS = 1000;
    static final int DEFAULT_HEALTH_SECONDS = 3;
    /** Bounds on what a health check may ask for: it loads a server that may be serving. */
    static final int MAX_HEALTH_SEARCHES = 64;
    static final int MAX_HEALTH_SECONDS = 60;

    private static final Map<String, Set<String>> FIELDS = Map.of(
            "search", Set.of("project", "query", "expect", "refused", "within"),
            "list_projects", Set.of("names", "count"),
            "list_documents", Set.of("project", "names", "count"),
            "read_article", Set.of("project", "document", "article", "title", "contains"),
            "error", Set.of("tool", "arguments", "message"),
            "schemas", Set.of("tools", "file"),
            "health", Set.of("project", "query", "searches", "budgetMillis", "seconds"));

    public ChecksFile {
        checks = List.copyOf(checks);
    }

    public static ChecksFile load(Path file) {
        return parse(QuestionFile.readText(file, "checks file"), file.toString(), file.toAbsolutePath().getParent());
    }

    /** @param dir where a schemas check's relative {@code file} is found (the checks file's directory) */
    public static ChecksFile parse(String yaml, String origin, Path dir) {
        Raw raw;
        try {
            raw = QuestionFile.strictYaml().readValue(yaml, Raw.class);
        } catch (JacksonException e) {
            throw new VerifyException("checks file " + origin + " is not valid: " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""));
        }
        if (raw == null || (empty(raw.questions()) && empty(raw.checks()))) {
            throw new VerifyException("checks file " + origin + " has no checks (and no questions)");
        }
        List<String> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int within = raw.within() == null ? DEFAULT_WITHIN : raw.within();
        if (raw.within() != null && (within < 1 || within > 20)) {
            problems.add("within must be 1 to 20 (the search tool's top_k), got " + within);
        }
        List<Check> out = new ArrayList<>();
        if (raw.questions() != null) {
            for (Question q : QuestionFile.questions(raw.questions(), raw.project(), ids, problems)) {
                out.add(SearchCheck.of(q, within));
            }
        }
        if (raw.checks() != null) {
            for (int i = 0; i < raw.checks().size(); i++) {
                Check c = check(raw.checks().get(i), i, raw.project(), within, ids, dir, problems);
                if (c != null) {
                    out.add(c);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new VerifyException("checks file " + origin + ":\n  " + String.join("\n  ", problems));
        }
        return new ChecksFile(blank(raw.set()) ? origin : raw.set(), origin, out);
    }

    private static Check check(RawCheck c, int index, String defaultProject, int defaultWithin, Set<String> ids, Path dir,
                               List<String> problems) {
        String where = c == null || blank(c.id()) ? "check " + (index + 1) : "check '" + c.id() + "'";
        if (c == null) {
            problems.add(where + " is empty");
            return null;
        }
        int before = problems.size();
        if (blank(c.id())) {
            problems.add(where + " has no id");
        } else if (!ids.add(c.id())) {
            problems.add(where + ": the id is used twice");
        }
        Set<String> allowed = blank(c.kind()) ? null : FIELDS.get(c.kind().strip());
        if (allowed == null) {
            problems.add(where + (blank(c.kind()) ? " has no kind" : " has an unknown kind '" + c.kind() + "'")
                    + "; kinds: " + String.join(", ", new java.util.TreeSet<>(FIELDS.keySet())));
            return null;
        }
        for (String field : c.present().keySet()) {
            if (!allowed.contains(field)) {
                problems.add(where + ": '" + field + "' does not belong to a " + c.kind().strip() + " check (its fields: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
        }
        String project = blank(c.project()) ? defaultProject : c.project().strip();
        Check built = switch (c.kind().strip()) {
            case "search" -> search(c, where, project, defaultWithin, problems);
            case "list_projects" -> {
                names(c, where, "project", problems);
                yield new ListProjectsCheck(c.id(), c.names(), c.count());
            }
            case "list_documents" -> {
                needProject(project, where, problems);
                names(c, where, "document", problems);
                yield new ListDocumentsCheck(c.id(), project, c.names(), c.count());
            }
            case "read_article" -> {
                needProject(project, where, problems);
                if (blank(c.document()) || blank(c.article())) {
                    problems.add(where + " needs document and article");
                }
                if (blank(c.title()) && blank(c.contains())) {
                    problems.add(where + " expects nothing: give title and/or contains (a phrase of the text)");
                }
                yield new ReadArticleCheck(c.id(), project, strip(c.document()), strip(c.article()), strip(c.title()), strip(c.contains()));
            }
            case "error" -> error(c, where, problems);
            case "schemas" -> schemas(c, where, dir, problems);
            default -> health(c, where, project, problems);
        };
        return problems.size() == before ? built : null;
    }

    private static Check search(RawCheck c, String where, String project, int defaultWithin, List<String> problems) {
        int within = c.within() == null ? defaultWithin : c.within();
        if (within < 1 || within > 20) {
            problems.add(where + ": within must be 1 to 20 (the search tool's top_k), got " + within);
        }
        List<String> own = new ArrayList<>();
        List<Question> q = QuestionFile.questions(List.of(new RawQuestion(c.id(), "search", project, c.query(), c.expect(),
                c.refused(), null)), null, new HashSet<>(), own);
        own.forEach(p -> problems.add(p.replaceFirst("^question", "check")));
        return q.isEmpty() ? null : new SearchCheck(c.id(), project, q.get(0).query(), q.get(0).expect(), q.get(0).refused(), within);
    }

    private static void names(RawCheck c, String where, String what, List<String> problems) {
        if (c.names() == null && c.count() == null) {
            problems.add(where + " expects nothing: give names (every " + what + ", in any order) and/or count");
        }
        if (c.names() != null && c.names().stream().anyMatch(ChecksFile::blank)) {
            problems.add(where + ": a name is empty");
        }
        if (c.names() != null && new HashSet<>(c.names()).size() != c.names().size()) {
            problems.add(where + ": a name is listed twice");
        }
        if (c.count() != null && c.count() < 0) {
            problems.add(where + ": count cannot be negative");
        }
    }

    private static Check error(RawCheck c, String where, List<String> problems) {
        if (blank(c.tool())) {
            problems.add(where + " needs the tool to call (" + String.join(", ", ErrorCheck.TOOLS) + ")");
            return null;
        }
        if (!ErrorCheck.TOOLS.contains(c.tool().strip())) {
            problems.add(where + ": unknown tool '" + c.tool() + "'; tools: " + String.join(", ", ErrorCheck.TOOLS));
        }
        Map<String, Object> args = c.arguments() == null ? Map.of() : c.arguments();
        if (args.values().stream().anyMatch(java.util.Objects::isNull)) {
            problems.add(where + ": an argument has no value (leave it out instead)");
            return null;
        }
        return new ErrorCheck(c.id(), c.tool().strip(), args, strip(c.message()));
    }

    private static Check schemas(RawCheck c, String where, Path dir, List<String> problems) {
        if (c.tools() != null && c.tools().stream().anyMatch(ChecksFile::blank)) {
            problems.add(where + ": a tool name is empty");
        }
        Path file = blank(c.file()) ? null : (dir == null ? Path.of(c.file()) : dir.resolve(c.file()));
        try {
            return SchemasCheck.of(c.id(), c.tools(), file);
        } catch (RuntimeException e) {
            problems.add(where + ": " + e.getMessage());
            return null;
        }
    }

    private static Check health(RawCheck c, String where, String project, List<String> problems) {
        needProject(project, where, problems);
        if (blank(c.query())) {
            problems.add(where + " needs the query its searches send");
        }
        int searches = c.searches() == null ? DEFAULT_HEALTH_SEARCHES : c.searches();
        int budget = c.budgetMillis() == null ? DEFAULT_HEALTH_BUDGET_MILLIS : c.budgetMillis();
        int seconds = c.seconds() == null ? DEFAULT_HEALTH_SECONDS : c.seconds();
        if (searches < 1 || searches > MAX_HEALTH_SEARCHES) {
            problems.add(where + ": searches must be 1 to " + MAX_HEALTH_SEARCHES + ", got " + searches);
        }
        if (budget < 1) {
            problems.add(where + ": budgetMillis must be positive");
        }
        if (seconds < 1 || seconds > MAX_HEALTH_SECONDS) {
            problems.add(where + ": seconds must be 1 to " + MAX_HEALTH_SECONDS + ", got " + seconds);
        }
        return new HealthCheck(c.id(), project, strip(c.query()), searches, budget, seconds);
    }

    private static void needProject(String project, String where, List<String> problems) {
        if (blank(project)) {
            problems.add(where + " names no project (and the file gives no default 'project')");
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static boolean empty(List<?> l) {
        return l == null || l.isEmpty();
    }

    private static String strip(String s) {
        return s == null ? null : s.strip();
    }

    record Raw(String set, String project, String description, Integer within, List<RawQuestion> questions, List<RawCheck> checks) {
    }

    /** Every field any kind has; which ones a check may carry depends on its kind ({@link #FIELDS}). */
    record RawCheck(String id, String kind, String note, String project, String query, List<RawRef> expect, Boolean refused,
                    Integer within, List<String> names, Integer count, String document, String article, String title,
                    String contains, String tool, Map<String, Object> arguments, String message, List<String> tools, String file,
                    Integer searches, Integer budgetMillis, Integer seconds) {

        /** The kind-specific fields that were written (id, kind and note are every kind's). */
        Map<String, Object> present() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("project", project);
            m.put("query", query);
            m.put("expect", expect);
            m.put("refused", refused);
            m.put("within", within);
            m.put("names", names);
            m.put("count", count);
            m.put("document", document);
            m.put("article", article);
            m.put("title", title);
            m.put("contains", contains);
            m.put("tool", tool);
            m.put("arguments", arguments);
            m.put("message", message);
            m.put("tools", tools);
            m.put("file", file);
            m.put("searches", searches);
            m.put("budgetMillis", budgetMillis);
            m.put("seconds", seconds);
            m.values().removeIf(java.util.Objects::isNull);
            return m;
        }
    }
}
