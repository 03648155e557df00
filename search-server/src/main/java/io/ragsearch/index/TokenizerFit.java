package io.ragsearch.index;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;

/**
 * How well an embedding model's vocabulary covers a corpus. A word the tokenizer cannot
 * represent comes out as [UNK] or shattered into single characters (an English WordPiece
 * vocabulary turns Hangul into one piece per jamo): the model has never learned such a word,
 * so its vectors say little about it. {@code uncoveredShare} is the share of such words.
 */
public record TokenizerFit(double uncoveredShare, int wordsSampled) {

    /** Articles sampled: enough for a stable share, few enough to cost well under a second. */
    private static final int SAMPLE_ARTICLES = 200;
    private static final int SAMPLE_CHARS_PER_ARTICLE = 400;

    public static TokenizerFit measure(HuggingFaceTokenizer tokenizer, Corpus corpus) {
        int words = 0;
        int uncovered = 0;
        int sampled = 0;
        int stride = Math.max(1, corpus.articleCount() / SAMPLE_ARTICLES);
        int position = 0;
        for (Document d : corpus.documents()) {
            for (Article a : d.articles()) {
                if (position++ % stride != 0 || sampled >= SAMPLE_ARTICLES) {
                    continue;
                }
                sampled++;
                String text = a.searchableText();
                Encoding enc = tokenizer.encode(text.substring(0, Math.min(text.length(), SAMPLE_CHARS_PER_ARTICLE)), false, false);
                int[] counts = countWords(enc);
                words += counts[0];
                uncovered += counts[1];
            }
        }
        return new TokenizerFit(words == 0 ? 0 : (double) uncovered / words, words);
    }

    /** {words with letters, of which uncovered}. */
    private static int[] countWords(Encoding enc) {
        String[] tokens = enc.getTokens();
        long[] wordIds = enc.getWordIds();
        int words = 0;
        int uncovered = 0;
        int i = 0;
        while (i < tokens.length) {
            long word = wordIds[i];
            int pieces = 0;
            int letters = 0;
            boolean unknown = false;
            while (i < tokens.length && wordIds[i] == word) {
                String piece = tokens[i].startsWith("##") ? tokens[i].substring(2) : tokens[i];
                unknown |= tokens[i].equals("[UNK]");
                letters += (int) piece.codePoints().filter(Character::isLetter).count();
                pieces++;
                i++;
                if (word < 0) {
                    break;
                }
            }
            if (letters == 0 && !unknown) {
                continue;
            }
            words++;
            // A known word takes one piece or a few sub-words; more than one piece per two letters is shattering.
            if (unknown || (pieces > 1 && pieces * 2 > letters)) {
                uncovered++;
            }
        }
        return new int[] {words, uncovered};
    }
}
