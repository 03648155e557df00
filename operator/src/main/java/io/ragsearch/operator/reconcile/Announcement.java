package io.ragsearch.operator.reconcile;

/**
 * An Event to write about the RagSearch, as a decision says it: the planners and the status
 * composer only describe events, {@link EventRecorder} writes them when the reconcile acts.
 */
public record Announcement(boolean warning, String reason, String message) {

    public static Announcement normal(String reason, String message) {
        return new Announcement(false, reason, message);
    }

    public static Announcement warning(String reason, String message) {
        return new Announcement(true, reason, message);
    }
}
