package io.ragsearch.verification;

/**
 * What one server answered to one check: {@code shown} for the row, {@code facts} (a record of
 * the check's kind) to judge and compare, or {@code failure} when the call itself failed
 * (unreachable, no answer in time, an unexpected tool error); then {@code facts} is null.
 */
record Observation(String shown, Object facts, String failure, double millis) {

    static Observation of(String shown, Object facts, double millis) {
        return new Observation(shown, facts, null, millis);
    }

    static Observation failed(String shown, String why, double millis) {
        return new Observation(shown, null, why, millis);
    }

    boolean failed() {
        return failure != null;
    }
}
