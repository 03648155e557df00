package io.ragsearch.verification;

/** A checks file or a verify setting that cannot be used; the message says what to fix. */
public final class VerifyException extends RuntimeException {

    public VerifyException(String message) {
        super(message);
    }
}
