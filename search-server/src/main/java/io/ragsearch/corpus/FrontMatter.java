package io.ragsearch.corpus;

import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** YAML front matter between "---" lines at the very start of a Markdown file. */
public record FrontMatter(Map<String, Object> fields, String body, Optional<String> problem) {

    private static final ObjectMapper YAML = YAMLMapper.builder().build();

    public static FrontMatter parse(String text) {
        String normalized = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (!normalized.startsWith("---")) {
            return new FrontMatter(Map.of(), normalized, Optional.empty());
        }
        int firstBreak = normalized.indexOf('\n');
        if (firstBreak < 0 || !normalized.substring(0, firstBreak).strip().equals("---")) {
            return new FrontMatter(Map.of(), normalized, Optional.empty());
        }
        int close = findClosingFence(normalized, firstBreak + 1);
        if (close < 0) {
            return new FrontMatter(Map.of(), normalized, Optional.of("front matter has no closing '---'"));
        }
        String yaml = normalized.substring(firstBreak + 1, close);
        int bodyStart = normalized.indexOf('\n', close);
        String body = bodyStart < 0 ? "" : normalized.substring(bodyStart + 1);
        try {
            Object parsed = YAML.readValue(yaml, Object.class);
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = parsed instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
            return new FrontMatter(fields, body, Optional.empty());
        } catch (JacksonException e) {
            // Keep the document: its body is still good evidence; say what was wrong.
            return new FrontMatter(Map.of(), body, Optional.of("front matter is not valid YAML: "
                    + e.getOriginalMessage()));
        }
    }

    private static int findClosingFence(String text, int from) {
        int lineStart = from;
        while (lineStart < text.length()) {
            int lineEnd = text.indexOf('\n', lineStart);
            String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd).strip();
            if (line.equals("---")) {
                return lineStart;
            }
            if (lineEnd < 0) {
                return -1;
            }
            lineStart = lineEnd + 1;
        }
        return -1;
    }

    /** The title under the Korean key 제목 or the English key title. */
    public Optional<String> title() {
        for (String key : new String[] {"제목", "title"}) {
            Object value = fields.get(key);
            if (value != null && !value.toString().isBlank()) {
                return Optional.of(value.toString().strip());
            }
        }
        return Optional.empty();
    }
}
