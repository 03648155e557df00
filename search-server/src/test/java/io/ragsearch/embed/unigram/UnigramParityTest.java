package io.ragsearch.embed.unigram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.index.IndexBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our Unigram tokenizer gives the Rust library's ids, piece for piece, on every text the project
 * has: each corpus's articles as the embedder sees them (title and article, "passage: " prefix,
 * truncated at the model's length), the whole files untruncated, and every question of every
 * question file ("query: " prefix). The statutes include articles ending in a newline, whose
 * last piece is a lone "▁": a SentencePiece rebuild drops it, the served ids keep it.
 */
class UnigramParityTest {

    /** Whole files are compared untruncated: longer than any file the project has. */
    private static final int UNTRUNCATED = 1_000_000;

    private static ReferenceTokenizers truncating;
    private static ReferenceTokenizers untruncated;

    @BeforeAll
    static void load() throws IOException {
        truncating = ReferenceTokenizers.builtin(null);
        untruncated = ReferenceTokenizers.builtin(UNTRUNCATED);
    }

    @AfterAll
    static void close() {
        truncating.close();
        untruncated.close();
    }

    @Test
    void articlesAsTheEmbedderSeesThemGiveTheSameIds() throws IOException {
        List<String> mismatches = new ArrayList<>();
        int articles = 0;
        int endingInLoneMark = 0;
        for (Path dir : ProjectTexts.corpora()) {
            var corpus = new CorpusLoader(false).load(dir.getFileName().toString(), dir).corpus();
            for (String text : IndexBuilder.embeddingTexts(corpus)) {
                String passage = truncating.settings.passagePrefix() + text;
                articles++;
                String diff = truncating.difference(passage);
                if (diff != null) {
                    mismatches.add(dir.getFileName() + ": " + excerpt(passage) + "\n" + diff);
                }
                String[] pieces = truncating.ours.encode(passage).pieces();
                if (pieces.length >= 2 && pieces[pieces.length - 2].equals("\u2581")) {
                    endingInLoneMark++;
                }
            }
        }
        System.out.printf("parity: %d articles compared, %d differ, %d end in a lone ▁%n", articles, mismatches.size(), endingInLoneMark);
        assertTrue(articles > 900, "articles compared: " + articles);
        assertTrue(endingInLoneMark > 0, "no article ends in a lone ▁: the trailing-space case went untested");
        assertEquals(List.of(), mismatches.subList(0, Math.min(5, mismatches.size())),
                mismatches.size() + " of " + articles + " articles differ");
    }

    @Test
    void wholeFilesUntruncatedGiveTheSameIds() throws IOException {
        List<String> mismatches = new ArrayList<>();
        int files = 0;
        int endingInLoneMark = 0;
        long tokens = 0;
        for (Path dir : ProjectTexts.corpora()) {
            List<Path> paths;
            try (Stream<Path> s = Files.walk(dir)) {
                paths = s.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path p : paths) {
                String text = Files.readString(p, StandardCharsets.UTF_8);
                files++;
                String[] pieces = untruncated.ours.encode(text).pieces();
                tokens += pieces.length;
                if (pieces.length >= 2 && pieces[pieces.length - 2].equals("\u2581")) {
                    endingInLoneMark++;
                }
                String diff = untruncated.difference(text);
                if (diff != null) {
                    mismatches.add(p + "\n" + diff);
                }
            }
        }
        System.out.printf("parity: %d whole files (%d tokens) compared untruncated, %d differ, %d end in a lone ▁%n", files, tokens,
                mismatches.size(), endingInLoneMark);
        assertTrue(files > 50 && tokens > 200_000, files + " files, " + tokens + " tokens");
        assertTrue(endingInLoneMark > files / 2, endingInLoneMark + " of " + files + " files end in a lone ▁ (a final newline)");
        assertEquals(List.of(), mismatches.subList(0, Math.min(3, mismatches.size())), mismatches.size() + " of " + files + " files differ");
    }

    @Test
    void everyQuestionGivesTheSameIds() throws IOException {
        List<String> queries = ProjectTexts.questions();
        List<String> mismatches = new ArrayList<>();
        for (String q : queries) {
            String diff = truncating.difference(truncating.settings.queryPrefix() + q);
            if (diff != null) {
                mismatches.add(q + "\n" + diff);
            }
        }
        System.out.printf("parity: %d questions compared, %d differ%n", queries.size(), mismatches.size());
        assertTrue(queries.size() > 100, "questions compared: " + queries.size());
        assertEquals(List.of(), mismatches, mismatches.size() + " of " + queries.size() + " questions differ");
    }

    private static String excerpt(String text) {
        String flat = text.replace("\n", "\\n");
        return flat.length() <= 120 ? flat : flat.substring(0, 60) + " … " + flat.substring(flat.length() - 60);
    }
}
