package io.ragsearch.docs;

import java.util.List;

/**
 * One command as a document shows it: a line (continuations joined, a heredoc's body kept) of a
 * fenced {@code sh} block, with the plain block right after it when that block shows its output.
 *
 * @param output the lines of the output block that follows, or empty when none does
 */
public record DocCommand(String file, int line, String text, List<String> output) {

    /** The parts of a {@code a && b && c} chain, each judged on its own. */
    public List<String> parts() {
        return List.of(text.split(" && "));
    }

    public String where() {
        return file + ":" + line;
    }
}
