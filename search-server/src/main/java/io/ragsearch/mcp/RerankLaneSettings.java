package io.ragsearch.mcp;

/**
 * The tool pool's second lane, for searches of projects that rerank: its own threads (as many as
 * the rerank permits, so a search there rarely waits for one), a short queue, and the budget a
 * search may wait in that queue before it is answered "busy, retry". A project's rerank queue
 * then never holds a thread or a queue place that searches without reranking need (issue 21).
 */
public record RerankLaneSettings(int threads, int queue, int budgetMillis) {

    /** Queue places per lane thread: enough to keep the permits busy, short enough that a wait stays in budget. */
    public static final int QUEUE_PER_THREAD = 4;

    public RerankLaneSettings {
        if (threads < 1 || queue < 1 || budgetMillis < 1) {
            throw new IllegalArgumentException("rerank lane threads, queue and budget must be at least 1");
        }
    }

    /** The lane for this many rerank permits and this queue budget. */
    public static RerankLaneSettings forPermits(int permits, int budgetMillis) {
        return new RerankLaneSettings(permits, permits * QUEUE_PER_THREAD, budgetMillis);
    }
}
