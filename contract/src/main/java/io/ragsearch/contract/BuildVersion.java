package io.ragsearch.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The Maven project version each program's build filters into a {@code version.properties}
 * resource next to a class of its own: written once (the pom), read here by both.
 */
public final class BuildVersion {
    private BuildVersion() {
    }

    /** The {@code version} in {@code version.properties} beside {@code anchor}'s class file. */
    public static String of(Class<?> anchor) {
        try (InputStream in = anchor.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing beside " + anchor.getName() + " (the build filters it)");
            }
            Properties p = new Properties();
            p.load(in);
            String version = p.getProperty("version");
            if (version == null || version.contains("${")) {
                throw new IllegalStateException("version.properties beside " + anchor.getName() + " was not filtered: " + version);
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
