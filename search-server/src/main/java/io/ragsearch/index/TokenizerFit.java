package io.ragsearch.index;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.TokenEncoding;
import java.util.List;
import java.util.Set;

/**
 * How well an embedding model's vocabulary covers a corpus. A word the tokenizer cannot
 * represent comes out as an unknown token ({@code [UNK]} in WordPiece, {@code <unk>} in
 * SentencePiece/Unigram) or shattered into single characters (an English WordPiece
 * vocabulary turns Hangul into one piece per jamo): the model has never learned such a word,
 * so its vectors say little about it. {@code uncoveredShare} is the share of such words.
 */
public record TokenizerFit(double uncoveredShare, int wordsSampled) {

    /** Articles sampled: enough for a stable share, few enough to cost well under a second. */
    private static final int SAMPLE_ARTICLES = 200;
    private static final int SAMPLE_CHARS_PER_ARTICLE = 400;

    public static TokenizerFit measure(TextTokenizer tokenizer, Corpus corpus) {
        Set<Long> unknownIds = tokenizer.unknownIds();
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
                TokenEncoding enc = tokenizer.encodeContent(text.substring(0, Math.min(text.length(), SAMPLE_CHARS_PER_ARTICLE)));
                int[] counts = countWords(enc, unknownIds);
                words += counts[0];
                uncovered += counts[1];
            }
        }
        return new TokenizerFit(words == 0 ? 0 : (double) uncovered / words, words);
    }

    /** The unknown token of WordPiece and of SentencePiece vocabularies. */
    private static final List<String> UNKNOWN = List.of("[UNK]", "<unk>");

    /** {words with letters, of which uncovered}. */
    private static int[] countWords(TokenEncoding enc, Set<Long> unknownIds) {
        long[] ids = enc.ids();
        String[] tokens = enc.pieces();
        long[] wordIds = enc.wordIds();
        int words = 0;
        int uncovered = 0;
        int i = 0;
        while (i < tokens.length) {
            long word = wordIds[i];
            int pieces = 0;
            int letters = 0;
            boolean unknown = false;
            while (i < tokens.length && wordIds[i] == word) {
                String piece = withoutBoundaryMark(tokens[i]);
                unknown |= UNKNOWN.contains(tokens[i]) || unknownIds.contains(ids[i]);
                letters += piece.codePoints().map(TokenizerFit::letterWeight).sum();
                // Only pieces that spell letters count: a lone "▁" (SentencePiece's word start), digits and
                // punctuation inside a word say nothing about whether the vocabulary knows it.
                if (piece.codePoints().anyMatch(Character::isLetter)) {
                    pieces++;
                }
                i++;
                if (word < 0) {
                    break;
                }
            }
            if (letters == 0 && !unknown) {
                continue;
            }
            words++;
            // A known word takes one piece or a few sub-words; more than one piece per two letters
            // (a syllable block counting two) is shattering.
            if (unknown || (pieces > 1 && pieces * 2 > letters)) {
                uncovered++;
            }
        }
        return new int[] {words, uncovered};
    }

    /** WordPiece marks a continuation with "##", SentencePiece a word start with "▁". */
    private static String withoutBoundaryMark(String token) {
        if (token.startsWith("##")) {
            return token.substring(2);
        }
        return token.startsWith("\u2581") ? token.substring(1) : token;
    }

    /**
     * Letters a character spells. A Hangul syllable block or a Han character is a whole syllable
     * (two or three jamo), so a one-syllable piece is a real sub-word, not a shattered word;
     * separate jamo, the pieces an English vocabulary shatters Hangul into, count one each.
     */
    private static int letterWeight(int codePoint) {
        if (!Character.isLetter(codePoint)) {
            return 0;
        }
        boolean syllable = (codePoint >= 0xAC00 && codePoint <= 0xD7A3)
                || Character.UnicodeScript.of(codePoint) == Character.UnicodeScript.HAN;
        return syllable ? 2 : 1;
    }
}
