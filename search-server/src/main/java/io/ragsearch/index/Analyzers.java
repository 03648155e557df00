package io.ragsearch.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/** The Lucene analyzer per language, and a helper to run one over a string. */
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

    /** The distinct terms the analyzer makes of {@code text}, in order of first appearance. */
    public static Set<String> terms(Analyzer analyzer, String field, String text) {
        return new LinkedHashSet<>(tokenList(analyzer, field, text));
    }

    /** Every token in order, repeats kept (positions matter, e.g. for a phrase of bigrams). */
    static List<String> tokenList(Analyzer analyzer, String field, String text) {
        List<String> out = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                out.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException("analysing text in memory cannot fail", e);
        }
        return out;
    }

    public static List<String> termList(Analyzer analyzer, String field, String text) {
        return new ArrayList<>(terms(analyzer, field, text));
    }
}
