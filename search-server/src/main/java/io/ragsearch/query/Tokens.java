package io.ragsearch.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/** Runs a Lucene analyzer over a string in memory. */
public final class Tokens {

    private Tokens() {
    }

    /** The distinct terms the analyzer makes of {@code text}, in order of first appearance. */
    public static Set<String> terms(Analyzer analyzer, String field, String text) {
        return new LinkedHashSet<>(list(analyzer, field, text));
    }

    public static List<String> termList(Analyzer analyzer, String field, String text) {
        return new ArrayList<>(terms(analyzer, field, text));
    }

    /** Every token in order, repeats kept (positions matter, e.g. for a phrase of bigrams). */
    static List<String> list(Analyzer analyzer, String field, String text) {
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
}
