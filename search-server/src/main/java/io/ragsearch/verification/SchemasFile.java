package io.ragsearch.verification;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Path;
import java.util.List;

/** Writes a server's tools in the form a schemas check's {@code file} holds. */
public final class SchemasFile {

    private SchemasFile() {
    }

    public static void write(List<Tool> tools, Path file) {
        ToolSchemas.write(ToolSchemas.of(tools), file);
    }
}
