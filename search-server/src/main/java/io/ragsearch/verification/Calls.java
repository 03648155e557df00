package io.ragsearch.verification;

import io.ragsearch.mcpclient.McpClientException;
import io.ragsearch.mcpclient.ToolAnswer;
import java.util.Map;

/** One timed tool call on a side; a server that cannot be reached or does not answer becomes a failed observation. */
final class Calls {

    private Calls() {
    }

    /** The answer and how long it took, or {@code failure} when there is no answer. */
    record Timed(ToolAnswer answer, double millis, Observation failure) {
    }

    static Timed call(Side side, String tool, Map<String, Object> arguments) {
        if (side.client() == null) {
            return new Timed(null, 0, unreachable(side));
        }
        long t0 = System.nanoTime();
        try {
            ToolAnswer a = side.client().call(tool, arguments);
            return new Timed(a, millisSince(t0), null);
        } catch (McpClientException e) {
            String shown = timedOut(e.getMessage()) ? "no answer in " + side.timeout().toSeconds() + " s" : "call failed";
            return new Timed(null, millisSince(t0), Observation.failed(shown, e.getMessage(), millisSince(t0)));
        }
    }

    /** The observation of every check on a server that could not be connected to. */
    static Observation unreachable(Side side) {
        String shown = timedOut(side.unreachable()) ? "no answer in " + side.timeout().toSeconds() + " s" : "unreachable";
        return Observation.failed(shown, side.unreachable(), 0);
    }

    private static boolean timedOut(String message) {
        return message.endsWith("no answer in time");
    }

    /** A tool error where an answer was expected. */
    static Observation unexpectedError(Timed t) {
        return Observation.failed("tool error", "tool error: " + firstLine(t.answer().text()), t.millis());
    }

    static double millisSince(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    static String firstLine(String text) {
        String s = text == null ? "" : text.strip();
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Cut for a table cell. */
    static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
