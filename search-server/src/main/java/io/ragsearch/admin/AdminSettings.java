package io.ragsearch.admin;

import io.ragsearch.contract.AdminEndpoints;
import io.ragsearch.contract.settings.SettingsRules;

/** The admin listener's address and port (probes, /info, /calibration, /metrics). */
public record AdminSettings(String bindAddress, int port) {

    public static final int DEFAULT_PORT = AdminEndpoints.DEFAULT_ADMIN_PORT;

    public AdminSettings {
        String problem = SettingsRules.port("admin port", port);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }
}
