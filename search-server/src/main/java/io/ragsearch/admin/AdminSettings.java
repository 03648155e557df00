package io.ragsearch.admin;

import io.ragsearch.contract.AdminEndpoints;

/** The admin listener's address and port (probes, /info, /calibration, /metrics). */
public record AdminSettings(String bindAddress, int port) {

    public static final int DEFAULT_PORT = AdminEndpoints.DEFAULT_ADMIN_PORT;

    public AdminSettings {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("admin port must be 0..65535, got " + port);
        }
    }
}
