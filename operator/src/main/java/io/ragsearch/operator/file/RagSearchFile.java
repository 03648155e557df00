package io.ragsearch.operator.file;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.ragsearch.contract.settings.ValueKinds;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ragsearch.operator.model.RagSearch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a RagSearch from a YAML file strictly: a misspelt field is an error naming it (an API
 * server would silently prune it, and the person would wonder why the setting does nothing), and
 * so are a duplicate key (YAML would keep the last), a second document (it would be ignored), a
 * fraction where a whole number belongs ({@code replicas: 2.5} would become 2), text that is not
 * UTF-8, and alias expansions that could exhaust memory (a "billion laughs" file).
 */
public final class RagSearchFile {
    /** A RagSearch is a few kilobytes; a file far larger is not one. */
    static final int MAX_FILE_BYTES = 1 << 20;
    /** Aliases are rare in a RagSearch; few of them cannot expand into a memory bomb. */
    private static final int MAX_ALIASES = 10;
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder().loaderOptions(loaderOptions()).build())
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
            .configure(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION, true);

    static {
        // replicas: "5 " or "" was read as 5 or as absent; the API server refuses text where its schema says integer.
        YAML.coercionConfigFor(com.fasterxml.jackson.databind.type.LogicalType.Integer)
                .setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.String, com.fasterxml.jackson.databind.cfg.CoercionAction.Fail)
                .setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.EmptyString,
                        com.fasterxml.jackson.databind.cfg.CoercionAction.Fail);
    }

    private static org.yaml.snakeyaml.LoaderOptions loaderOptions() {
        org.yaml.snakeyaml.LoaderOptions options = new org.yaml.snakeyaml.LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(MAX_FILE_BYTES);
        options.setNestingDepthLimit(64);
        return options;
    }

    private RagSearchFile() {
    }

    public static RagSearch read(Path file) {
        String text;
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new RagSearchFileException(file + ": larger than " + (MAX_FILE_BYTES >> 10) + " KiB; not a RagSearch file");
            }
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (NoSuchFileException e) {
            throw new RagSearchFileException(file + ": no such file");
        } catch (CharacterCodingException e) {
            throw new RagSearchFileException(file + ": not UTF-8 text (save it as UTF-8)");
        } catch (IOException e) {
            throw new RagSearchFileException(file + ": cannot be read (" + e.getMessage() + ")");
        }
        return parse(file.toString(), text);
    }

    public static RagSearch parse(String source, String text) {
        refuseAliases(source, text);
        JsonNode node;
        try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class).readValues(text)) {
            List<JsonNode> all = new ArrayList<>();
            while (documents.hasNextValue()) {
                JsonNode d = documents.nextValue();
                if (d != null && !d.isNull() && !d.isMissingNode()) {
                    all.add(d);
                }
            }
            if (all.size() > 1) {
                throw new RagSearchFileException(source + ": holds " + all.size()
                        + " YAML documents; give one RagSearch per file");
            }
            node = all.isEmpty() ? null : all.get(0);
        } catch (RagSearchFileException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw new RagSearchFileException(source + ": not valid YAML: " + withoutClassNames(e.getOriginalMessage())
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        } catch (IOException | RuntimeException e) {
            // SnakeYAML's own limits (aliases, nesting, size) surface as its exceptions.
            throw new RagSearchFileException(source + ": not accepted as YAML: " + firstLine(e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            throw new RagSearchFileException(source + ": expected one RagSearch object, found "
                    + (node == null ? "nothing" : node.getNodeType().toString().toLowerCase()));
        }
        String kind = node.path("kind").asText("");
        String apiVersion = node.path("apiVersion").asText("");
        if (!"RagSearch".equals(kind) || !RagSearch.API_VERSION.equals(apiVersion)) {
            throw new RagSearchFileException(source + ": expected apiVersion " + RagSearch.API_VERSION
                    + " and kind RagSearch, found apiVersion '" + apiVersion + "' kind '" + kind + "'");
        }
        try {
            RagSearch r = YAML.treeToValue(node, RagSearch.class);
            if (r.getMetadata() == null || r.getMetadata().getName() == null || r.getMetadata().getName().isBlank()) {
                throw new RagSearchFileException(source + ": metadata.name is required");
            }
            return r;
        } catch (UnrecognizedPropertyException e) {
            throw new RagSearchFileException(source + ": unknown field '" + e.getPropertyName() + "' at "
                    + path(e) + "; known there: " + e.getKnownPropertyIds());
        } catch (MismatchedInputException e) {
            throw new RagSearchFileException(source + ": " + path(e) + ": expected " + expected(e.getTargetType())
                    + (e instanceof InvalidFormatException f ? ", got '" + f.getValue() + "'" : given(node, e)));
        } catch (JsonProcessingException e) {
            throw new RagSearchFileException(source + ": " + withoutClassNames(e.getOriginalMessage()) + " at " + path(e));
        }
    }

    /**
     * The YAML reader does not expand aliases: {@code *a} would silently become the text "a".
     * A RagSearch has no need for them, so one is refused (and no alias bomb can expand).
     */
    private static void refuseAliases(String source, String text) {
        try (com.fasterxml.jackson.dataformat.yaml.YAMLParser parser =
                     (com.fasterxml.jackson.dataformat.yaml.YAMLParser) YAML.getFactory().createParser(text)) {
            while (parser.nextToken() != null) {
                if (parser.isCurrentAlias()) {
                    throw new RagSearchFileException(source + ": YAML aliases (*" + parser.getText()
                            + ", line " + parser.currentLocation().getLineNr() + ") are not supported in a RagSearch file; "
                            + "write the value out");
                }
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof RagSearchFileException u) {
                throw u;
            }
            // Not YAML at all: the full parse below says where and why.
        }
    }

    /** What a Java type means in a YAML file. */
    private static String expected(Class<?> type) {
        return type == null ? "another kind of value" : ValueKinds.of(type, "an object with fields");
    }

    /** Jackson names Java types in backquotes (`java.lang.Integer`); a YAML author needs the kind of value. */
    static String withoutClassNames(String message) {
        if (message == null) {
            return "";
        }
        return ValueKinds.withoutClassNames(message.replaceAll("<org\\.yaml\\.snakeyaml\\.events\\.(\\w+)Event\\([^>]*>", "$1"));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "rejected";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /** ", got 'text'" for a scalar the reader refused to coerce (quoted text where a number belongs); else nothing. */
    private static String given(com.fasterxml.jackson.databind.JsonNode root, com.fasterxml.jackson.databind.JsonMappingException e) {
        StringBuilder pointer = new StringBuilder();
        for (var ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                pointer.append('/').append(ref.getFieldName().replace("~", "~0").replace("/", "~1"));
            } else if (ref.getIndex() >= 0) {
                pointer.append('/').append(ref.getIndex());
            }
        }
        com.fasterxml.jackson.databind.JsonNode value = root.at(pointer.toString());
        return value.isTextual() ? ", got '" + value.asText().replace("\n", "\\n") + "'" : "";
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
