package io.ragsearch.search;

/** A request the caller must change (empty or oversized query, top_k out of range). */
public final class InvalidRequestException extends RuntimeException {
    public InvalidRequestException(String message) {
        super(message);
    }
}
