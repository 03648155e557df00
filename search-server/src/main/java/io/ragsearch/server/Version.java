package io.ragsearch.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The Maven project version, filtered into a resource at build time: the one place it is written. */
public final class Version {

    private static final String VERSION = read();

    private Version() {
    }

    public static String current() {
        return VERSION;
    }

    private static String read() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
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
}
