package io.ragsearch.embed.unigram;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The vocabulary's pieces as a trie over UTF-16 chars in flat arrays: 250k pieces take about
 * 12 MB here, against a map of 250k strings (or the Rust library's hundreds of MiB). Nodes are
 * numbered breadth first, so the children of node n are the contiguous, label-sorted range
 * [firstChild[n], firstChild[n + 1]), found by binary search; the root's children are also
 * indexed directly by their char, the one step every lookup takes.
 */
final class PieceTrie {

    private static final int ROOT = 0;

    private final char[] label;
    private final int[] firstChild;
    /** The piece id a node ends, or -1. */
    private final int[] value;
    private final int[] rootChild = new int[Character.MAX_VALUE + 1];

    private PieceTrie(char[] label, int[] firstChild, int[] value) {
        this.label = label;
        this.firstChild = firstChild;
        this.value = value;
        Arrays.fill(rootChild, -1);
        for (int c = firstChild[ROOT]; c < firstChild[ROOT + 1]; c++) {
            rootChild[label[c]] = c;
        }
    }

    /**
     * @param pieces the vocabulary in id order; a piece spelt twice keeps the higher id, as the
     *               Rust library's piece-to-id map (filled in id order) does
     */
    static PieceTrie build(String[] pieces) {
        Integer[] order = new Integer[pieces.length];
        int kept = 0;
        for (int i = 0; i < pieces.length; i++) {
            if (!pieces[i].isEmpty()) {
                order[kept++] = i;
            }
        }
        order = Arrays.copyOf(order, kept);
        Arrays.sort(order, Comparator.<Integer, String>comparing(i -> pieces[i]).thenComparingInt(i -> i));

        // Breadth first over ranges of the sorted pieces sharing a prefix of length depth.
        int capacity = Math.max(16, kept * 4);
        char[] labels = new char[capacity];
        int[] first = new int[capacity + 1];
        int[] values = new int[capacity];
        int[] lo = new int[capacity];
        int[] hi = new int[capacity];
        int[] depth = new int[capacity];
        int nodes = 1;
        values[ROOT] = -1;
        lo[ROOT] = 0;
        hi[ROOT] = kept;
        for (int n = 0; n < nodes; n++) {
            int from = lo[n];
            int d = depth[n];
            // Pieces that end here sort first within the range; the last of them has the highest id.
            while (from < hi[n] && pieces[order[from]].length() == d) {
                values[n] = order[from];
                from++;
            }
            first[n] = nodes;
            while (from < hi[n]) {
                char c = pieces[order[from]].charAt(d);
                int to = from + 1;
                while (to < hi[n] && pieces[order[to]].charAt(d) == c) {
                    to++;
                }
                if (nodes == labels.length) {
                    int grown = labels.length * 2;
                    labels = Arrays.copyOf(labels, grown);
                    first = Arrays.copyOf(first, grown + 1);
                    values = Arrays.copyOf(values, grown);
                    lo = Arrays.copyOf(lo, grown);
                    hi = Arrays.copyOf(hi, grown);
                    depth = Arrays.copyOf(depth, grown);
                }
                labels[nodes] = c;
                values[nodes] = -1;
                lo[nodes] = from;
                hi[nodes] = to;
                depth[nodes] = d + 1;
                nodes++;
                from = to;
            }
        }
        first[nodes] = nodes;
        return new PieceTrie(Arrays.copyOf(labels, nodes), Arrays.copyOf(first, nodes + 1), Arrays.copyOf(values, nodes));
    }

    int nodeCount() {
        return label.length;
    }

    /** The child of node reached by c, or -1. */
    int child(int node, char c) {
        if (node == ROOT) {
            return rootChild[c];
        }
        int lo = firstChild[node];
        int hi = firstChild[node + 1] - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            char m = label[mid];
            if (m < c) {
                lo = mid + 1;
            } else if (m > c) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** The piece id node ends, or -1. */
    int value(int node) {
        return value[node];
    }

    static int root() {
        return ROOT;
    }

    /** The id of exactly text[from, to), or -1. */
    int id(CharSequence text, int from, int to) {
        int node = ROOT;
        for (int i = from; i < to && node >= 0; i++) {
            node = child(node, text.charAt(i));
        }
        return node >= 0 ? value[node] : -1;
    }
}
