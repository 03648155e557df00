package io.ragsearch.mcp;

import java.util.Map;
import io.ragsearch.auth.Caller;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * One tool as both protocol revisions publish it: the same name, schemas and annotations, and
 * the same body. {@link LegacyTools} and {@link ModernTools} turn it into each SDK's own types.
 *
 * @param inputSchema  JSON Schema 2020-12 of the arguments (closed objects)
 * @param outputSchema JSON Schema of {@link ToolOutcome#structured()} on success
 * @param body         runs on a tool thread with arguments already checked against the input schema, for this
 *                     caller (its scope decides which projects exist for it)
 * @param reranks      whether a call with these (checked) arguments reranks: {@link ToolCatalog#call} then runs
 *                     it in the executor's rerank lane, so it cannot hold a thread the other calls need
 */
public record ToolDefinition(String name, String title, String description, Map<String, Object> inputSchema,
                             Map<String, Object> outputSchema, Hints hints, BiFunction<Map<String, Object>, Caller, ToolOutcome> body,
                             Predicate<Map<String, Object>> reranks) {

    /** For tools whose calls never rerank. */
    static final Predicate<Map<String, Object>> NEVER_RERANKS = args -> false;

    /** The annotations every client sees: all four tools are read-only, idempotent and closed-world. */
    public record Hints(String title, boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {

        static Hints readOnly(String title) {
            return new Hints(title, true, false, true, false);
        }
    }
}
