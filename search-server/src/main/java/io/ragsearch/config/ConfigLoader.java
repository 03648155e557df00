package io.ragsearch.config;

import io.ragsearch.contract.settings.ServerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Reads the YAML configuration file; relative source directories resolve against the file's folder. */
public final class ConfigLoader {

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // A key written twice is a mistake (which one was meant?); render refuses it, and so does the server.
            .enable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // mcpPort: 1.5 or "" was read as 1 or as absent: a whole number must be written as one, as render requires.
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .withCoercionConfig(tools.jackson.databind.type.LogicalType.Integer, c -> c
                    .setCoercion(tools.jackson.databind.cfg.CoercionInputShape.String, tools.jackson.databind.cfg.CoercionAction.Fail)
                    .setCoercion(tools.jackson.databind.cfg.CoercionInputShape.EmptyString, tools.jackson.databind.cfg.CoercionAction.Fail)
                    .setCoercion(tools.jackson.databind.cfg.CoercionInputShape.Float, tools.jackson.databind.cfg.CoercionAction.Fail))
            .build();

    private ConfigLoader() {
    }

    /** Far above any configuration (200 projects take a few KB); past it the file is refused unread, so /dev/zero is an error, not an OutOfMemoryError. */
    public static final int MAX_CONFIG_BYTES = 1 << 20;

    public static ServerSettings load(Path file) {
        String text;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_CONFIG_BYTES + 1);
            if (bytes.length > MAX_CONFIG_BYTES) {
                throw new ConfigException("configuration file " + file + " is larger than " + (MAX_CONFIG_BYTES >> 10)
                        + " KiB: is it the right file?");
            }
            text = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ConfigException("configuration file " + file + " is not UTF-8 text", e);
        } catch (IOException e) {
            throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage(), e);
        }
        ServerSettings config = parse(text, file.toString());
        Path base = file.toAbsolutePath().getParent();
        if (config.projects() == null) {
            return config;
        }
        return new ServerSettings(config.server(), config.models(), config.rerank(), config.database(), config.projects().stream()
                .map(p -> p.source() == null || p.source().directory() == null || ConfigOverrides.fromDatabase(p) ? p
                        : new ServerSettings.Project(p.name(), p.description(),
                                new ServerSettings.Source(base.resolve(p.source().directory()).normalize().toString(),
                                        p.source().include(), null),
                                p.language(), p.retrieval(), p.gate(), p.includeAddenda(), p.reranker()))
                .toList());
    }

    private static ConfigException empty(String origin) {
        return new ConfigException("configuration " + origin + " holds no settings: is it the right file? (without a"
                + " configuration the server serves its sample corpus; say so by giving none)");
    }

    public static ServerSettings parse(String yaml, String origin) {
        // An empty file (or one that is only "---", "~" or "null") is a mistake, a truncated write or the wrong file:
        // taking it as "all defaults" silently served the sample corpus instead of the operator's projects.
        if (yaml.isBlank()) {
            throw empty(origin);
        }
        try {
            // Comments only, "---", "~" or "null": no settings at all (the tree is missing or null).
            tools.jackson.databind.JsonNode tree = YAML.readTree(yaml);
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                throw empty(origin);
            }
            ServerSettings config = YAML.readValue(yaml, ServerSettings.class);
            if (config == null) {
                throw empty(origin);
            }
            return config;
        } catch (JacksonException e) {
            throw new ConfigException("configuration " + origin + " is not valid: " + ConfigMessages.of(e)
                    + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""), e);
        }
    }
}
