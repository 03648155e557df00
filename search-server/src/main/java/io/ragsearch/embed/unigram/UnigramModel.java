package io.ragsearch.embed.unigram;

/**
 * The Unigram model: a piece's score is its log probability, and a word is cut into the pieces
 * whose scores sum highest (Viterbi over every vocabulary piece that starts at every character).
 * A character no piece starts with becomes the unknown piece at the lowest score less 10, and
 * runs of unknown characters fuse into one token, as in SentencePiece and the Rust library.
 * Ties keep the earlier candidate: shorter pieces are tried first, and only a strictly higher
 * score replaces the best path to a position.
 */
final class UnigramModel {

    /** How far below the least likely piece an unknown character scores. */
    private static final double UNKNOWN_PENALTY = 10.0;

    private final PieceTrie trie;
    private final double[] scores;
    private final int unknownId;
    private final double unknownScore;

    /** @param scores each piece's score, by id; trie the pieces with their ids */
    UnigramModel(PieceTrie trie, double[] scores, int unknownId) {
        if (scores.length == 0) {
            throw new IllegalArgumentException("Unigram vocabulary is empty");
        }
        if (unknownId < 0 || unknownId >= scores.length) {
            throw new IllegalArgumentException("Unigram unk_id " + unknownId + " is outside the vocabulary of " + scores.length);
        }
        this.trie = trie;
        this.scores = scores;
        this.unknownId = unknownId;
        double min = Double.POSITIVE_INFINITY;
        for (double s : scores) {
            min = Math.min(min, s);
        }
        this.unknownScore = min - UNKNOWN_PENALTY;
    }

    int unknownId() {
        return unknownId;
    }

    int vocabularySize() {
        return scores.length;
    }

    int trieNodes() {
        return trie.nodeCount();
    }

    /** Appends word's pieces to out, each with wordId. */
    void encode(String word, long wordId, TokenBuffer out) {
        int n = word.length();
        if (n == 0) {
            return;
        }
        double[] best = new double[n + 1];
        int[] from = new int[n + 1];
        int[] id = new int[n + 1];
        java.util.Arrays.fill(from, 1, n + 1, -1);
        for (int start = 0; start < n; ) {
            int cp = Character.codePointAt(word, start);
            int charEnd = start + Character.charCount(cp);
            double base = best[start];
            boolean singleCharPiece = false;
            int node = PieceTrie.root();
            for (int i = start; i < n; i++) {
                node = trie.child(node, word.charAt(i));
                if (node < 0) {
                    break;
                }
                int piece = trie.value(node);
                if (piece < 0) {
                    continue;
                }
                int end = i + 1;
                double candidate = scores[piece] + base;
                if (from[end] < 0 || candidate > best[end]) {
                    best[end] = candidate;
                    from[end] = start;
                    id[end] = piece;
                }
                singleCharPiece |= end == charEnd;
            }
            if (!singleCharPiece) {
                double candidate = unknownScore + base;
                if (from[charEnd] < 0 || candidate > best[charEnd]) {
                    best[charEnd] = candidate;
                    from[charEnd] = start;
                    id[charEnd] = unknownId;
                }
            }
            start = charEnd;
        }
        // Back from the end; a run of unknown pieces becomes one token spelling the whole run.
        int mark = out.size();
        int end = n;
        while (end > 0) {
            int start = from[end];
            if (id[end] == unknownId) {
                while (start > 0 && id[start] == unknownId) {
                    start = from[start];
                }
                int known = trie.id(word, start, end); // the run's text may itself be a piece
                out.add(known >= 0 ? known : unknownId, word.substring(start, end), wordId);
            } else {
                out.add(id[end], word.substring(start, end), wordId);
            }
            end = start;
        }
        out.reverseFrom(mark);
    }
}
