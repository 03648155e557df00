package io.ragsearch.embed.unigram;

import io.ragsearch.eval.QuestionFile;
import io.ragsearch.search.SharedCorpus;
import io.ragsearch.search.TestProjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/** Every text the project has, for the parity tests: its corpus directories and its questions. */
final class ProjectTexts {

    private ProjectTexts() {
    }

    private static Path top() {
        return Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    }

    /** Every corpus directory: the samples, the evaluation corpora, the shared statutes. */
    static List<Path> corpora() throws IOException {
        List<Path> dirs = new ArrayList<>();
        dirs.add(TestProjects.sampleDirectory("en"));
        dirs.add(TestProjects.sampleDirectory("ko"));
        try (Stream<Path> s = Files.list(top().resolve("eval/corpora"))) {
            s.filter(Files::isDirectory).sorted().forEach(dirs::add);
        }
        dirs.add(SharedCorpus.koStatutes());
        return dirs;
    }

    /** Every "query" string of every question and verify file under eval/. */
    static List<String> questions() throws IOException {
        List<String> queries = new ArrayList<>();
        try (Stream<Path> s = Files.list(top().resolve("eval"))) {
            for (Path file : s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                collectQueries(QuestionFile.strictYaml().readTree(Files.readString(file)), queries);
            }
        }
        return queries;
    }

    private static void collectQueries(JsonNode node, List<String> out) {
        if (node.isObject()) {
            JsonNode q = node.get("query");
            if (q != null && q.isString()) {
                out.add(q.asString());
            }
        }
        if (node.isContainer()) {
            for (JsonNode child : node) {
                collectQueries(child, out);
            }
        }
    }
}
