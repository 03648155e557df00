package io.ragsearch.embed.unigram;

import java.util.Arrays;

/** A growing list of (id, piece, word id): one text's tokens while it is encoded. */
final class TokenBuffer {

    private int[] ids = new int[64];
    private String[] pieces = new String[64];
    private long[] words = new long[64];
    private int size;

    void add(int id, String piece, long word) {
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, size * 2);
            pieces = Arrays.copyOf(pieces, size * 2);
            words = Arrays.copyOf(words, size * 2);
        }
        ids[size] = id;
        pieces[size] = piece;
        words[size] = word;
        size++;
    }

    int size() {
        return size;
    }

    int id(int i) {
        return ids[i];
    }

    String piece(int i) {
        return pieces[i];
    }

    long word(int i) {
        return words[i];
    }

    /** Reverses the tokens added since mark (the model finds them back to front). */
    void reverseFrom(int mark) {
        for (int i = mark, j = size - 1; i < j; i++, j--) {
            int id = ids[i];
            ids[i] = ids[j];
            ids[j] = id;
            String p = pieces[i];
            pieces[i] = pieces[j];
            pieces[j] = p;
            long w = words[i];
            words[i] = words[j];
            words[j] = w;
        }
    }
}
