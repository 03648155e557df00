package io.ragsearch.operator.file;

/** A RagSearch file a person handed in cannot be used; the message says why in one line (exit code 2). */
public final class RagSearchFileException extends RuntimeException {
    public RagSearchFileException(String message) {
        super(message);
    }
}
