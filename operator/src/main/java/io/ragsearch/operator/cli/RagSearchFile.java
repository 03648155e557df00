package io.ragsearch.operator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ragsearch.operator.model.RagSearch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a RagSearch from a YAML file strictly: a misspelt field is an error naming it (an API
 * server would silently prune it, and the person would wonder why the setting does nothing).
 */
public final class RagSearchFile {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private RagSearchFile() {
    }

    public static RagSearch read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new OperatorCli.UsageProblem(file + ": no such file");
        } catch (IOException e) {
            throw new OperatorCli.UsageProblem(file + ": cannot be read (" + e.getMessage() + ")");
        }
        return parse(file.toString(), text);
    }

    public static RagSearch parse(String source, String text) {
        JsonNode node;
        try {
            node = YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new OperatorCli.UsageProblem(source + ": not valid YAML: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        }
        if (node == null || !node.isObject()) {
            throw new OperatorCli.UsageProblem(source + ": expected one RagSearch object, found "
                    + (node == null ? "nothing" : node.getNodeType().toString().toLowerCase()));
        }
        String kind = node.path("kind").asText("");
        String apiVersion = node.path("apiVersion").asText("");
        if (!"RagSearch".equals(kind) || !RagSearch.API_VERSION.equals(apiVersion)) {
            throw new OperatorCli.UsageProblem(source + ": expected apiVersion " + RagSearch.API_VERSION
                    + " and kind RagSearch, found apiVersion '" + apiVersion + "' kind '" + kind + "'");
        }
        try {
            RagSearch r = YAML.treeToValue(node, RagSearch.class);
            if (r.getMetadata() == null || r.getMetadata().getName() == null || r.getMetadata().getName().isBlank()) {
                throw new OperatorCli.UsageProblem(source + ": metadata.name is required");
            }
            return r;
        } catch (UnrecognizedPropertyException e) {
            throw new OperatorCli.UsageProblem(source + ": unknown field '" + e.getPropertyName() + "' at "
                    + path(e) + "; known there: " + e.getKnownPropertyIds());
        } catch (JsonProcessingException e) {
            throw new OperatorCli.UsageProblem(source + ": " + e.getOriginalMessage() + " at " + path(e));
        }
    }

    private static String path(JsonProcessingException e) {
        if (!(e instanceof com.fasterxml.jackson.databind.JsonMappingException m)) {
            return "?";
        }
        StringBuilder b = new StringBuilder();
        for (var ref : m.getPath()) {
            if (ref.getFieldName() != null) {
                b.append(b.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                b.append('[').append(ref.getIndex()).append(']');
            }
        }
        return b.isEmpty() ? "the top" : b.toString();
    }
}
