package io.ragsearch.operator.cli;

import picocli.CommandLine;

/** The Maven project version, filtered into a resource at build time: the one place it is written. */
public final class OperatorVersion implements CommandLine.IVersionProvider {

    public static String current() {
        return io.ragsearch.contract.BuildVersion.of(OperatorVersion.class);
    }

    /** For picocli's --version: the command's name and the Maven version. */
    @Override
    public String[] getVersion() {
        return new String[] {"${COMMAND-FULL-NAME} " + current()};
    }
}
