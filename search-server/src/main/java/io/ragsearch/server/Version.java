package io.ragsearch.server;

/** The Maven project version, filtered into a resource at build time: the one place it is written. */
public final class Version {

    private static final String VERSION = read();

    private Version() {
    }

    public static String current() {
        return VERSION;
    }

    private static String read() {
        return io.ragsearch.contract.BuildVersion.of(Version.class);
    }
}
