package io.ragsearch.search;

/** A caller named something that does not exist; the message names what does. */
public final class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
        super(message);
    }
}
