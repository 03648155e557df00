package io.ragsearch.embed.unigram;

/**
 * The Rust tokenizers library's {@code only_second} truncation of a pair, whose ids the
 * cross-encoders were trained and are served with: the tokens over the room are taken from the
 * end of the second text; the first is never cut. When the second text has no more tokens than
 * must go, the library refuses the pair rather than cut the first (so it does here), and an
 * empty second text counts as too short.
 */
final class PairTruncation {

    private PairTruncation() {
    }

    /**
     * How many of the second text's tokens stay.
     *
     * @param room the maximum length less the template's special tokens
     */
    static int secondKept(int first, int second, int room) {
        int excess = first + second - room;
        if (excess <= 0) {
            return second;
        }
        if (second > excess) {
            return second - excess;
        }
        throw new IllegalArgumentException("the first text of the pair (" + first + " tokens) leaves no room for the second ("
                + second + " tokens) within " + room + " tokens beside the special ones; only the second text is cut");
    }
}
