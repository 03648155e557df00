package io.ragsearch.sim.plane;

/**
 * The control plane cannot be built or started here; the message says what to do about it
 * (run from the checkout, install Go, fix what the build reported), so callers print it as it is.
 */
public final class ControlPlaneUnavailable extends IllegalStateException {
    public ControlPlaneUnavailable(String message) {
        super(message);
    }
}
