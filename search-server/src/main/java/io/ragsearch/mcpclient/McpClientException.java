package io.ragsearch.mcpclient;

/** A server that cannot be reached, did not answer in time, or answered something unusable; the message says which, in words. */
public final class McpClientException extends RuntimeException {

    public McpClientException(String message) {
        super(message);
    }
}
