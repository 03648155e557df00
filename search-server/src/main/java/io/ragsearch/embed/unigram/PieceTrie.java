package io.ragsearch.embed.unigram;

import java.util.Arrays;

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
     * Pieces added one by one (the reader streams them: no array of 250k strings is ever held),
     * inserted with nodes numbered as they come and edges in a hash table; {@link #build}
     * renumbers breadth first from the edges sorted as packed longs (parent, label, child), with
     * no sorting of strings (which took seconds).
     */
    static final class Builder {

        private final EdgeTable edges = new EdgeTable();
        private int[] values = new int[1024];
        private int nodes = 1;

        Builder() {
            values[ROOT] = -1;
        }

        /**
         * Ids must come in increasing order: a piece spelt twice keeps the higher id, as the Rust
         * library's piece-to-id map (filled in id order) does.
         */
        void add(String piece, int id) {
            int node = ROOT;
            for (int i = 0; i < piece.length(); i++) {
                int child = edges.get(node, piece.charAt(i));
                if (child < 0) {
                    child = nodes++;
                    edges.put(node, piece.charAt(i), child);
                    if (child == values.length) {
                        values = Arrays.copyOf(values, values.length * 2);
                    }
                    values[child] = -1;
                }
                node = child;
            }
            if (node != ROOT) {
                values[node] = id;
            }
        }

        PieceTrie build() {
            return PieceTrie.renumbered(edges, values, nodes);
        }
    }

    private static PieceTrie renumbered(EdgeTable edges, int[] values, int nodes) {
        int bits = Math.max(1, 32 - Integer.numberOfLeadingZeros(nodes));
        if (2 * bits + 16 > 63) {
            throw new IllegalArgumentException("vocabulary too large for the trie: " + nodes + " nodes");
        }
        long[] packed = edges.packed(bits);
        Arrays.sort(packed);
        long childMask = (1L << bits) - 1;
        int[] edgesFrom = new int[nodes + 1]; // edges of old node n: packed[edgesFrom[n], edgesFrom[n + 1])
        for (long e : packed) {
            edgesFrom[(int) (e >>> (bits + 16)) + 1]++;
        }
        for (int n = 0; n < nodes; n++) {
            edgesFrom[n + 1] += edgesFrom[n];
        }
        int[] order = new int[nodes]; // new number -> old number, breadth first
        char[] label = new char[nodes];
        int[] first = new int[nodes + 1];
        int next = 1;
        for (int q = 0; q < nodes; q++) {
            int old = order[q];
            first[q] = next;
            for (int e = edgesFrom[old]; e < edgesFrom[old + 1]; e++) {
                order[next] = (int) (packed[e] & childMask);
                label[next] = (char) ((packed[e] >>> bits) & 0xFFFF);
                next++;
            }
        }
        first[nodes] = nodes;
        int[] value = new int[nodes];
        for (int q = 0; q < nodes; q++) {
            value[q] = values[order[q]];
        }
        return new PieceTrie(label, first, value);
    }

    /** (parent, char) -> child while building: open addressing over packed keys, half full at most. */
    private static final class EdgeTable {

        private long[] keys = new long[1 << 16];
        private int[] children = new int[1 << 16];
        private int size;

        EdgeTable() {
            Arrays.fill(keys, -1);
        }

        int get(int parent, char c) {
            long key = ((long) parent << 16) | c;
            int mask = keys.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                if (keys[i] == key) {
                    return children[i];
                }
                if (keys[i] == -1) {
                    return -1;
                }
            }
        }

        void put(int parent, char c, int child) {
            if (2 * (size + 1) > keys.length) {
                grow();
            }
            insert(((long) parent << 16) | c, child);
            size++;
        }

        private void insert(long key, int child) {
            int mask = keys.length - 1;
            int i = slot(key, mask);
            while (keys[i] != -1) {
                i = (i + 1) & mask;
            }
            keys[i] = key;
            children[i] = child;
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldChildren = children;
            keys = new long[oldKeys.length * 2];
            children = new int[oldKeys.length * 2];
            Arrays.fill(keys, -1);
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != -1) {
                    insert(oldKeys[i], oldChildren[i]);
                }
            }
        }

        private static int slot(long key, int mask) {
            long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h >>> 40) & mask;
        }

        /** Every edge as parent << (bits + 16) | char << bits | child: sorting these orders children by label. */
        long[] packed(int bits) {
            long[] out = new long[size];
            int k = 0;
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != -1) {
                    long parent = keys[i] >>> 16;
                    long c = keys[i] & 0xFFFF;
                    out[k++] = (parent << (bits + 16)) | (c << bits) | children[i];
                }
            }
            return out;
        }
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
