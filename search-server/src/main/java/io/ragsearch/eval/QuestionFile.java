package io.ragsearch.eval;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A question file (YAML): {@code set}, a default {@code project}, and {@code questions}, each
 * with {@code id}, {@code kind}, {@code query} and either {@code expect} (the articles that answer
 * it) or {@code refused: true}. Read strictly: an unknown field, a duplicate key or id, a question
 * that is neither answerable nor refused is an error naming the question, and nothing is run.
 * The format is documented in docs/eval.md.
 */
public record QuestionFile(String set, String origin, List<Question> questions) {

    /** A bound on what is read: question files are written by people, a bigger one is a mistake. */
    static final long MAX_BYTES = 4L << 20;

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** The strict YAML reader question files (and the checks files that extend them) are read with. */
    public static ObjectMapper strictYaml() {
        return YAML;
    }

    public QuestionFile {
        questions = List.copyOf(questions);
    }

    public static QuestionFile load(Path file) {
        return parse(readText(file, "question file"), file.toString());
    }

    /** A file written by a person: bounded in size, UTF-8 or an error naming the file ({@code what}: "question file"). */
    public static String readText(Path file, String what) {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new EvalException(what + " " + file + " is larger than " + (MAX_BYTES >> 20) + " MiB");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new EvalException("cannot read " + what + " " + file + ": " + e.getMessage());
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new EvalException(what + " " + file + " is not UTF-8 text");
        }
    }

    public static QuestionFile parse(String yaml, String origin) {
        Raw raw;
        try {
            raw = YAML.readValue(yaml, Raw.class);
        } catch (JacksonException e) {
            throw new EvalException("question file " + origin + " is not valid: " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""));
        }
        if (raw == null || raw.questions() == null || raw.questions().isEmpty()) {
            throw new EvalException("question file " + origin + " has no questions");
        }
        List<String> problems = new ArrayList<>();
        List<Question> out = questions(raw.questions(), raw.project(), new HashSet<>(), problems);
        if (!problems.isEmpty()) {
            throw new EvalException("question file " + origin + ":\n  " + String.join("\n  ", problems));
        }
        return new QuestionFile(blank(raw.set()) ? origin : raw.set(), origin, out);
    }

    /**
     * Checks and converts raw questions; every problem goes to {@code problems} (a question with
     * one is left out), ids are unique within {@code ids}. Shared with the checks file of verify,
     * whose {@code questions} are these.
     */
    public static List<Question> questions(List<RawQuestion> raw, String defaultProject, Set<String> ids, List<String> problems) {
        List<Question> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            RawQuestion q = raw.get(i);
            String where = q == null || blank(q.id()) ? "question " + (i + 1) : "question '" + q.id() + "'";
            if (q == null) {
                problems.add(where + " is empty");
                continue;
            }
            int before = problems.size();
            if (blank(q.id())) {
                problems.add(where + " has no id");
            } else if (!ids.add(q.id())) {
                problems.add(where + ": the id is used twice");
            }
            if (blank(q.query())) {
                problems.add(where + " has no query");
            }
            String project = blank(q.project()) ? defaultProject : q.project();
            if (blank(project)) {
                problems.add(where + " names no project (and the file gives no default 'project')");
            }
            boolean refused = Boolean.TRUE.equals(q.refused());
            List<ArticleRef> expect = new ArrayList<>();
            if (q.expect() != null) {
                for (RawRef r : q.expect()) {
                    if (r == null || blank(r.document()) || blank(r.article())) {
                        problems.add(where + ": every expect entry needs document and article");
                    } else {
                        expect.add(new ArticleRef(r.document().strip(), r.article().strip()));
                    }
                }
            }
            if (refused && !expect.isEmpty()) {
                problems.add(where + " is both refused and expects articles: choose one");
            } else if (!refused && (q.expect() == null || q.expect().isEmpty())) {
                problems.add(where + " expects no article and is not marked 'refused: true'");
            }
            if (problems.size() == before) {
                String kind = blank(q.kind()) ? (refused ? "unanswerable" : "answerable") : q.kind().strip();
                out.add(new Question(q.id(), kind, project, q.query().strip(), expect, refused));
            }
        }
        return out;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    record Raw(String set, String project, String description, List<RawQuestion> questions) {
    }

    /** A question as written; public for the checks file, which embeds questions. */
    public record RawQuestion(String id, String kind, String project, String query, List<RawRef> expect, Boolean refused,
                       String note) {
    }

    public record RawRef(String document, String article) {
    }
}
