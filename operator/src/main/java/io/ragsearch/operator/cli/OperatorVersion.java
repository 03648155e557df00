package io.ragsearch.operator.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** The Maven project version, filtered into a resource at build time: the one place it is written. */
public final class OperatorVersion implements CommandLine.IVersionProvider {

    public static String current() {
        try (InputStream in = OperatorVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing from the build");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** For picocli's --version: the command's name and the Maven version. */
    @Override
    public String[] getVersion() {
        return new String[] {"${COMMAND-FULL-NAME} " + current()};
    }
}
