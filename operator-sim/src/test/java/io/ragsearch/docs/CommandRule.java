package io.ragsearch.docs;

import java.util.regex.Pattern;

/**
 * How the test suite answers for one kind of documented command: run here, started here in the
 * background, run by a named test or script (which must still contain it), or not runnable on a
 * machine of ours for the stated reason.
 */
public record CommandRule(Pattern pattern, Kind kind, int exitCode, String coveredBy, String literal, String reason) {

    public enum Kind { RUN, BACKGROUND, ASSIGN, COVERED, OUTSIDE }

    public static CommandRule run(String regex) {
        return new CommandRule(Pattern.compile(regex, Pattern.DOTALL), Kind.RUN, 0, null, null, null);
    }

    public static CommandRule run(String regex, int exitCode) {
        return new CommandRule(Pattern.compile(regex, Pattern.DOTALL), Kind.RUN, exitCode, null, null, null);
    }

    /** A server the following commands of the same file talk to; ready when it prints its listening line. */
    public static CommandRule background(String regex) {
        return new CommandRule(Pattern.compile(regex), Kind.BACKGROUND, 0, null, null, null);
    }

    /** {@code NAME=value}: kept and put before the file's later commands, as a shell session would. */
    public static CommandRule assign(String regex) {
        return new CommandRule(Pattern.compile(regex), Kind.ASSIGN, 0, null, null, null);
    }

    public static CommandRule coveredBy(String regex, String file, String literal) {
        return new CommandRule(Pattern.compile(regex), Kind.COVERED, 0, file, literal, null);
    }

    public static CommandRule outside(String regex, String reason) {
        return new CommandRule(Pattern.compile(regex), Kind.OUTSIDE, 0, null, null, reason);
    }

    public boolean matches(String part) {
        return pattern.matcher(part).matches();
    }
}
