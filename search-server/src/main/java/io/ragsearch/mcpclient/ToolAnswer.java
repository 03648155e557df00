package io.ragsearch.mcpclient;

import java.util.Map;

/**
 * One tool call's answer: a tool error ({@code isError}, with its message) or a result with its
 * text and {@code structuredContent} (null when the tool declared none).
 */
public record ToolAnswer(boolean error, String text, Map<String, Object> structured) {
}
