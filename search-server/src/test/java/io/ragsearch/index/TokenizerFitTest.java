package io.ragsearch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.Tokenizers;
import io.ragsearch.embed.UnigramTokenizerJson;
import io.ragsearch.search.ProjectLoader;
import io.ragsearch.search.TestProjects;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether a tokenizer represents a corpus, for WordPiece (MiniLM) and SentencePiece Unigram (XLM-R) vocabularies. */
class TokenizerFitTest {

    @TempDir
    Path dir;

    private Corpus corpus(String text) throws Exception {
        Files.writeString(dir.resolve("rules.md"), text);
        return new CorpusLoader(false).load("rules", dir).corpus();
    }

    private static TextTokenizer unigram(boolean hangul) throws Exception {
        return Tokenizers.fromJson(UnigramTokenizerJson.json(hangul).getBytes(StandardCharsets.UTF_8), 256);
    }

    @Test
    void aMultilingualUnigramVocabularyCoversKoreanWhereMiniLmDoesNot() throws Exception {
        Corpus korean = corpus(UnigramTokenizerJson.KOREAN_SAMPLE);
        try (TextTokenizer xlmr = unigram(true)) {
            TokenizerFit fit = TokenizerFit.measure(xlmr, korean);
            assertTrue(fit.wordsSampled() >= 10, "words sampled: " + fit.wordsSampled());
            // Words split into "▁" + syllables or whole-word pieces are known words, not shattered ones.
            assertEquals(0.0, fit.uncoveredShare(), fit.toString());
            assertTrue(ProjectLoader.suitsVectors(fit));
        }
        TokenizerFit miniLm = TokenizerFit.measure(TestProjects.embedder().tokenizer(), korean);
        assertTrue(miniLm.uncoveredShare() > 0.9, miniLm.toString());
        assertFalse(ProjectLoader.suitsVectors(miniLm));
    }

    @Test
    void unknownPiecesOfAUnigramVocabularyCountAsUncovered() throws Exception {
        // Unigram reports an unknown word under its own text: only the id says it is <unk>.
        try (TextTokenizer noHangul = unigram(false)) {
            TokenizerFit fit = TokenizerFit.measure(noHangul, corpus(UnigramTokenizerJson.KOREAN_SAMPLE));
            assertTrue(fit.uncoveredShare() > 0.9, fit.toString());
            assertFalse(ProjectLoader.suitsVectors(fit));
        }
    }

    @Test
    void miniLmStillCoversEnglish() throws Exception {
        TokenizerFit fit = TokenizerFit.measure(TestProjects.embedder().tokenizer(), corpus("""
                # Leave policy
                ### Article 1 (Annual leave)
                Employees receive fifteen days of paid annual leave after one year of service (COVID19 rules aside).
                """));
        assertTrue(fit.uncoveredShare() < 0.1, fit.toString());
    }
}
