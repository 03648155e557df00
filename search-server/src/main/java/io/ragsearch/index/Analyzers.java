package io.ragsearch.index;

import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;

/** The Lucene analyzer per language (running one over a string: {@code io.ragsearch.query.Tokens}). */
public final class Analyzers {

    /**
     * Lucene's English stop words plus question words: a question's "how many" or "what" is
     * never evidence, and counting it would lower every article's query-term coverage.
     */
    private static final List<String> EXTRA_ENGLISH_STOP_WORDS = List.of(
            "what", "which", "who", "whom", "whose", "how", "many", "much", "when", "where", "why",
            "do", "does", "did", "can", "could", "should", "would", "may", "might", "must", "i", "me",
            "my", "we", "our", "you", "your", "am", "about", "any", "get", "got", "has", "have", "had");

    private Analyzers() {
    }

    public static Analyzer forLanguage(Language language) {
        return switch (language) {
            case KOREAN -> new KoreanAnalyzer();
            case ENGLISH -> {
                CharArraySet stop = CharArraySet.copy(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
                stop.addAll(EXTRA_ENGLISH_STOP_WORDS);
                yield new EnglishAnalyzer(stop);
            }
        };
    }

    /** Overlapping character bigrams of Hangul/CJK runs (Lucene's CJK analyzer without stop words). */
    public static Analyzer bigrams() {
        return new CJKAnalyzer(CharArraySet.EMPTY_SET);
    }
}
