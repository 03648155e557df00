package io.ragsearch.admin;

/**
 * What the admin listener's memory-limit path asks of the server (AdminEndpoints.RERANK_MEMORY_LIMIT):
 * take the rerank bound of a limit about to apply, and answer the bound now in force as JSON.
 */
@FunctionalInterface
public interface MemoryLimitEndpoint {

    record Answer(int status, String json) {
    }

    Answer announce(long bytes);
}
