package io.ragsearch.eval;

/** A question file or an eval setting that cannot be used; the message says what to fix. */
public final class EvalException extends RuntimeException {

    public EvalException(String message) {
        super(message);
    }
}
