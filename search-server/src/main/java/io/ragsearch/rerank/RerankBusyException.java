package io.ragsearch.rerank;

/** No rerank permit within the queue budget: the caller should retry shortly. */
public final class RerankBusyException extends RuntimeException {
    public RerankBusyException(String message) {
        super(message);
    }
}
