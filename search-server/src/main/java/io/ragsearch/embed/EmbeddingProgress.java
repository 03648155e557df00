package io.ragsearch.embed;

import java.util.function.LongSupplier;

/**
 * How far the article embedding of a start has come, for readiness, /info, /metrics and the
 * operator's status: articles with a vector of the articles that need one, and the time left
 * at the rate measured so far. Work is counted in characters, not articles: the embedding runs
 * shortest texts first (a batch is padded to its longest text), so an article count would make
 * the early rate look far faster than the rest. Thread-safe: one thread embeds, any reads.
 */
public final class EmbeddingProgress {

    private final LongSupplier nanos;
    private int articlesTotal;
    private int articlesDone;
    private long charsTotal;
    private long charsDone;
    private long charsEmbedded;
    private long firstEmbedNanos = -1;
    private long lastEmbedNanos;
    private boolean finished;
    private String project = "";

    public EmbeddingProgress() {
        this(System::nanoTime);
    }

    EmbeddingProgress(LongSupplier nanos) {
        this.nanos = nanos;
    }

    /** What one read sees. {@code secondsLeft} is null until a first chunk has given a rate. */
    public record Snapshot(int articlesTotal, int articlesDone, Long secondsLeft, String project, boolean finished) {

        /** "1200 of 20000 articles embedded, about 35 min left" */
        public String describe() {
            String left = secondsLeft == null ? "time left not yet known" : "about " + duration(secondsLeft) + " left";
            return articlesDone + " of " + articlesTotal + " articles embedded, " + left;
        }

        private static String duration(long seconds) {
            if (seconds < 90) {
                return seconds + " s";
            }
            if (seconds < 90 * 60) {
                return (seconds + 30) / 60 + " min";
            }
            return String.format(java.util.Locale.ROOT, "%.1f h", seconds / 3600.0);
        }
    }

    /** Articles (and their characters) that will need a vector, announced before any is embedded. */
    public synchronized void expect(int articles, long chars) {
        articlesTotal += articles;
        charsTotal += chars;
    }

    /** The project whose articles are being embedded now. */
    public synchronized void project(String name) {
        project = name;
    }

    /** Vectors found in the cache: done, but no measure of the embedding rate. */
    public synchronized void reused(int articles, long chars) {
        articlesDone += articles;
        charsDone += chars;
    }

    /** Vectors just embedded. */
    public synchronized void embedded(int articles, long chars) {
        long now = nanos.getAsLong();
        if (firstEmbedNanos < 0) {
            // The first chunk's own time is unknown here: time is measured from when it ended.
            firstEmbedNanos = now;
        } else {
            charsEmbedded += chars;
        }
        lastEmbedNanos = now;
        articlesDone += articles;
        charsDone += chars;
    }

    public synchronized void finish() {
        finished = true;
    }

    public synchronized Snapshot snapshot() {
        Long left = null;
        long elapsed = lastEmbedNanos - firstEmbedNanos;
        if (finished) {
            left = 0L;
        } else if (firstEmbedNanos >= 0 && charsEmbedded > 0 && elapsed > 0) {
            double charsPerNano = (double) charsEmbedded / elapsed;
            left = Math.round(Math.max(0, charsTotal - charsDone) / charsPerNano / 1e9);
        }
        return new Snapshot(articlesTotal, articlesDone, left, project, finished);
    }
}
