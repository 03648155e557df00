package io.ragsearch.mcp;

/** The threads that run tool calls and how many calls wait for one before "busy". */
public record ToolPoolSettings(int threads, int queue) {

    public static final int DEFAULT_QUEUE = 32;

    public ToolPoolSettings {
        if (threads < 1 || queue < 1) {
            throw new IllegalArgumentException("tool threads and queue must be at least 1 (got " + threads + ", " + queue + ")");
        }
    }

    /** Tool work is CPU-bound: more threads than cores only queue inside the OS instead of here. */
    public static int defaultThreads() {
        return Math.max(2, Runtime.getRuntime().availableProcessors());
    }
}
