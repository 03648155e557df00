package io.ragsearch.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.ko.POS;
import org.apache.lucene.analysis.ko.tokenattributes.PartOfSpeechAttribute;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

/** Runs the project's analyzer over a query and marks question filler (Korean; English filler is stop words). */
final class QueryWords {

    /** An analysed term, where it stands in the text, whether it carries information, whether it is a noun. */
    record Word(String term, int start, int end, boolean informative, boolean noun) {
    }

    private QueryWords() {
    }

    static List<Word> of(Analyzer analyzer, String field, String text) {
        List<Word> out = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
            // Present only in a Nori chain; elsewhere adding it yields an attribute nobody sets (null tag).
            PartOfSpeechAttribute pos = stream.addAttribute(PartOfSpeechAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                String t = term.toString();
                POS.Tag tag = pos.getLeftPOS();
                boolean filler = QuestionFiller.isFiller(t, tag);
                boolean noun = tag != null && tag.name().startsWith("N");
                out.add(new Word(t, offset.startOffset(), offset.endOffset(), !filler, noun));
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException("analysing text in memory cannot fail", e);
        }
        return out;
    }

    /**
     * The stretch of each whitespace-separated word from its first to its last informative
     * term ("출산휴가를" → "출산휴가"): particles and endings dropped, compounds kept whole.
     */
    static String informativeSpans(String text, List<Word> words) {
        StringBuilder out = new StringBuilder();
        int wordStart = -1;
        int from = -1;
        int to = -1;
        for (Word w : words) {
            if (!w.informative() || w.start() < 0 || w.end() > text.length()) {
                continue;
            }
            int ws = wordStartOf(text, w.start());
            if (ws != wordStart) {
                append(out, text, from, to);
                wordStart = ws;
                from = w.start();
            }
            to = Math.max(to, w.end());
        }
        append(out, text, from, to);
        return out.toString();
    }

    /**
     * Runs of two or more informative nouns written together ("국민연금", "고용허가"), at least
     * three characters long: the compounds that name one concept.
     */
    static List<Compound> compounds(String text, List<Word> words) {
        List<Compound> out = new ArrayList<>();
        int i = 0;
        while (i < words.size()) {
            Word first = words.get(i);
            if (!first.informative() || !first.noun()) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < words.size() && words.get(j + 1).informative() && words.get(j + 1).noun()
                    && words.get(j + 1).start() == words.get(j).end()) {
                j++;
            }
            int end = words.get(j).end();
            if (j > i && end - first.start() >= 3 && end <= text.length()) {
                List<String> terms = new ArrayList<>();
                for (int k = i; k <= j; k++) {
                    terms.add(words.get(k).term());
                }
                out.add(new Compound(text.substring(first.start(), end), terms));
            }
            i = j + 1;
        }
        return out;
    }

    /** A compound as written and the terms the analyzer made of it. */
    record Compound(String text, List<String> terms) {
    }

    private static int wordStartOf(String text, int at) {
        int i = at;
        while (i > 0 && !Character.isWhitespace(text.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    private static void append(StringBuilder out, String text, int from, int to) {
        if (from >= 0 && to > from) {
            out.append(text, from, to).append(' ');
        }
    }
}
