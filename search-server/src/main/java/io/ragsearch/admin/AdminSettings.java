package io.ragsearch.admin;

import io.ragsearch.contract.AdminEndpoints;

/**
 * The admin listener's address and port (probes, /info, /calibration, /metrics). The port comes
 * checked by the configuration's rules (the contract's {@code SettingsRules}); 0 is any free port.
 */
public record AdminSettings(String bindAddress, int port) {

    public static final int DEFAULT_PORT = AdminEndpoints.DEFAULT_ADMIN_PORT;
}
