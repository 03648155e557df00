package io.ragsearch.embed.unigram;

/**
 * A fast answer, for the common pairs of characters, to "does an extended grapheme cluster
 * boundary (Unicode UAX #29) fall between these two?": false means "ask the full rules"
 * (java.util.regex's \X), so being conservative here is always safe. Korean and Chinese text and
 * ASCII never need the full rules; the slow path is for combining marks, jamo, emoji and the like.
 */
final class Graphemes {

    private Graphemes() {
    }

    static boolean breaksBetween(int before, int after) {
        if (before == '\r') {
            return after != '\n'; // GB3/GB4: CR LF is one cluster, CR breaks from anything else
        }
        // Below U+0600 and among syllable blocks and ideographs there is no Prepend character and
        // no leading jamo, so nothing can join a following ASCII character, syllable or ideograph.
        boolean plainBefore = before < 0x0600 || syllableOrIdeograph(before);
        boolean plainAfter = after < 0x80 || syllableOrIdeograph(after);
        return plainBefore && plainAfter;
    }

    private static boolean syllableOrIdeograph(int cp) {
        return (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0x4E00 && cp <= 0x9FFF);
    }
}
