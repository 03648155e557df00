package io.ragsearch.operator.naming;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The short digest the operator labels pods with (config hash, calibration key, secret digest,
 * volume-name suffixes).
 */
public final class ConfigHash {
    private ConfigHash() {
    }

    /** The first 16 hex digits of the text's sha256: short enough for a label value. */
    public static String of(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
