package io.ragsearch.embed.unigram;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "Precompiled" normalizer: SentencePiece's compiled NFKC-style map, applied the way the
 * Rust tokenizers apply it (that is what the model was trained and is served with, so ids only
 * match if the quirks match too). The text is cut into extended grapheme clusters; a cluster of
 * fewer than 6 UTF-8 bytes is looked up whole first, and when a key begins it (the shortest such
 * key) the cluster becomes that key's replacement, even if the key covers only its first
 * character (a full-width letter followed by a combining mark loses the mark). Otherwise each
 * character is looked up alone and kept when the map has no key for it.
 */
final class PrecompiledNormalizer implements NormalizeStep {

    /** The Rust normaliser looks clusters up whole only below this many UTF-8 bytes. */
    private static final int WHOLE_CLUSTER_BELOW = 6;
    private static final Pattern GRAPHEME = Pattern.compile("\\X");

    private final CharsMap map;

    PrecompiledNormalizer(CharsMap map) {
        this.map = map;
    }

    @Override
    public String apply(String text) {
        StringBuilder out = null;
        Matcher slow = null;
        int n = text.length();
        int i = 0;
        while (i < n) {
            int cp = Character.codePointAt(text, i);
            int j = i + Character.charCount(cp);
            int end = j;
            if (j < n && !Graphemes.breaksBetween(cp, Character.codePointAt(text, j))) {
                if (slow == null) {
                    slow = GRAPHEME.matcher(text);
                }
                slow.region(i, n);
                if (!slow.lookingAt()) {
                    throw new IllegalStateException("no grapheme cluster at " + i);
                }
                end = slow.end();
            }
            String replaced = null;
            boolean whole = false;
            if (end > j && Utf8.length(text, i, end) < WHOLE_CLUSTER_BELOW) {
                replaced = map.lookup(text, i, end);
                whole = replaced != null;
            }
            if (whole) {
                out = started(out, text, i);
                out.append(replaced);
            } else {
                for (int k = i; k < end; ) {
                    int c = Character.codePointAt(text, k);
                    int next = k + Character.charCount(c);
                    String r = map.lookup(text, k, next);
                    if (r != null) {
                        out = started(out, text, k);
                        out.append(r);
                    } else if (out != null) {
                        out.append(text, k, next);
                    }
                    k = next;
                }
            }
            i = end;
        }
        return out == null ? text : out.toString();
    }

    /** The output so far: created on the first change, holding the unchanged text before it. */
    private static StringBuilder started(StringBuilder out, String text, int upTo) {
        if (out != null) {
            return out;
        }
        StringBuilder b = new StringBuilder(text.length() + 16);
        b.append(text, 0, upTo);
        return b;
    }
}
