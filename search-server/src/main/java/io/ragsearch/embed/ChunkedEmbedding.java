package io.ragsearch.embed;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * Embeds many passages a chunk at a time, shortest first (a batch is padded to its longest
 * text, so sorting the whole set by length wastes least), telling a sink after each chunk:
 * the vector cache writes the chunk down, the progress counts it, and an interrupt between
 * chunks stops the work without losing what is done.
 */
public final class ChunkedEmbedding {

    /**
     * Texts per chunk: what a killed process can lose. 64 texts are 10–15 s of work for
     * multilingual-e5-small on one core (docs/models.md), and 20,000 articles make ≈ 310
     * chunks, which one folder listing reads in well under a second.
     */
    public static final int CHUNK = 64;

    /** Told each chunk's positions (into the texts) once their vectors are in {@code out}. */
    @FunctionalInterface
    public interface Sink {
        void chunkDone(List<Integer> positions);
    }

    private ChunkedEmbedding() {
    }

    /**
     * Embeds {@code texts} at {@code positions} into {@code out}.
     *
     * @throws CancellationException when the thread is interrupted between chunks
     */
    public static void embed(TextEmbedder embedder, List<String> texts, List<Integer> positions, float[][] out,
                             EmbeddingProgress progress, Sink sink) {
        List<Integer> order = new ArrayList<>(positions);
        order.sort(Comparator.comparingInt(i -> texts.get(i).length()));
        for (int from = 0; from < order.size(); from += CHUNK) {
            if (Thread.currentThread().isInterrupted()) {
                throw new CancellationException("embedding stopped after " + from + " of " + order.size() + " texts");
            }
            List<Integer> chunk = order.subList(from, Math.min(order.size(), from + CHUNK));
            float[][] fresh = embedder.embedPassages(chunk.stream().map(texts::get).toList());
            long chars = 0;
            for (int j = 0; j < fresh.length; j++) {
                out[chunk.get(j)] = fresh[j];
                chars += texts.get(chunk.get(j)).length();
            }
            sink.chunkDone(chunk);
            progress.embedded(chunk.size(), chars);
        }
    }

    /** Every position of a list of {@code n} texts. */
    public static List<Integer> all(int n) {
        List<Integer> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        return all;
    }

    /** Total characters of {@code texts} (what {@link EmbeddingProgress} counts work in). */
    public static long chars(List<String> texts) {
        long n = 0;
        for (String t : texts) {
            n += t.length();
        }
        return n;
    }
}
