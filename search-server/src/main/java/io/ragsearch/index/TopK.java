package io.ragsearch.index;

import java.util.Arrays;
import java.util.List;

/**
 * The k best (position, score) pairs offered, in two primitive arrays holding a binary heap
 * whose root is the worst kept: memory is O(k) whatever the number offered. "Better" is the
 * order a stable descending sort by score gives: higher score first ({@link Float#compare}, so
 * NaN above everything and 0.0 above -0.0), and on equal scores the lower position first.
 */
final class TopK {

    private final int[] positions;
    private final float[] scores;
    private int size;

    TopK(int k) {
        if (k < 0) {
            throw new IllegalArgumentException("k must not be negative: " + k);
        }
        positions = new int[k];
        scores = new float[k];
    }

    /** Offers one candidate; kept if fewer than k are held or it beats the worst held. */
    void offer(int position, float score) {
        int k = positions.length;
        if (size < k) {
            positions[size] = position;
            scores[size] = score;
            siftUp(size++);
        } else if (k > 0 && better(position, score, positions[0], scores[0])) {
            positions[0] = position;
            scores[0] = score;
            siftDown(0);
        }
    }

    /** The kept candidates, best first. Empties the heap. */
    List<RankedArticle> drainBestFirst() {
        RankedArticle[] out = new RankedArticle[size];
        for (int i = size - 1; i >= 0; i--) {
            out[i] = new RankedArticle(positions[0], scores[0]);
            size--;
            positions[0] = positions[size];
            scores[0] = scores[size];
            siftDown(0);
        }
        return Arrays.asList(out);
    }

    private static boolean better(int p1, float s1, int p2, float s2) {
        int c = Float.compare(s1, s2);
        return c > 0 || (c == 0 && p1 < p2);
    }

    /** The node at i moves towards the root while it is worse than its parent (the root is the worst). */
    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!better(positions[parent], scores[parent], positions[i], scores[i])) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int worst = left;
            int right = left + 1;
            if (right < size && better(positions[left], scores[left], positions[right], scores[right])) {
                worst = right;
            }
            if (!better(positions[i], scores[i], positions[worst], scores[worst])) {
                return;
            }
            swap(i, worst);
            i = worst;
        }
    }

    private void swap(int a, int b) {
        int p = positions[a];
        positions[a] = positions[b];
        positions[b] = p;
        float s = scores[a];
        scores[a] = scores[b];
        scores[b] = s;
    }
}
