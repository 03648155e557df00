package io.ragsearch.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The golden files (src/test/resources/golden): what the programs hand each other, written
 * once here. Both the server's and the operator's tests read them through this class (the
 * contract's test-jar), each through its own real reader and writer.
 */
public final class Golden {
    private Golden() {
    }

    /** A golden file's text, e.g. {@code text("calibration.json")}. */
    public static String text(String name) {
        try (InputStream in = Golden.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no golden file " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
