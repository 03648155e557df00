package io.ragsearch.operator.manifest;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ragsearch.contract.settings.ServerSettings;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads a server configuration the way the contract defines it (its records), strictly: a field
 * the schema does not have fails the test instead of being ignored, as the server would fail.
 */
public final class RenderedSettings {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private RenderedSettings() {
    }

    public static ServerSettings parse(String yaml) {
        try {
            return YAML.readValue(yaml, ServerSettings.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not a server configuration: " + e.getMessage(), e);
        }
    }
}
