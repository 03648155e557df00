package io.ragsearch.mcp;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** The media types a request to /mcp must carry ({@link McpRequestRules#check}). Pure. */
final class MediaTypes {

    private MediaTypes() {
    }

    /** The media ranges an Accept header lists, without parameters: "application/jsonx" is not "application/json". */
    static Set<String> mediaRanges(String accept) {
        Set<String> ranges = new HashSet<>();
        for (String part : accept.split(",")) {
            int semicolon = part.indexOf(';');
            ranges.add((semicolon < 0 ? part : part.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT));
        }
        return ranges;
    }

    /** Content-Type and Accept, judged once the body (and so the id to echo) has been read. */
    static Optional<McpRequestRules.Reject> problem(String contentType, String accept, JsonNode id) {
        if (!isJson(contentType)) {
            return Optional.of(new McpRequestRules.Reject(415, -32600, "Content-Type must be application/json (charset utf-8 if given)", id));
        }
        if (accept == null || !(mediaRanges(accept).contains("application/json") && mediaRanges(accept).contains("text/event-stream"))) {
            return Optional.of(new McpRequestRules.Reject(406, -32600, "Accept must list application/json and text/event-stream", id));
        }
        return Optional.empty();
    }

    /** Exactly application/json, parameters allowed; a charset other than UTF-8 is not. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";", -1); // -1: ";;;" gives empty parts, not an empty array
        if (!parts[0].strip().equalsIgnoreCase("application/json")) {
            return false;
        }
        return Arrays.stream(parts).skip(1).map(p -> p.strip().toLowerCase(Locale.ROOT))
                .filter(p -> p.startsWith("charset="))
                .allMatch(p -> p.substring(8).replace("\"", "").equals("utf-8"));
    }
}
