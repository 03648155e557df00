package io.ragsearch.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.MismatchedInputException;

/**
 * initialize's params read the way the SDK reads them (its own mapper, its own request type), so
 * that a value of the wrong kind anywhere below the top level ({@code "capabilities": {"roots":
 * "yes"}}) is refused here with the field's path and the kind it needs, instead of reaching the
 * SDK, which answers it with -32603 and Jackson's text naming Java classes. Reading with the SDK's
 * type rather than a list of our own keeps this true for fields the SDK adds later.
 */
final class InitializeParams {

    private InitializeParams() {
    }

    /** Why the SDK could not read these params, in plain words; empty when it can. */
    static Optional<String> problem(JsonNode params) {
        try {
            McpJsonDefaults.getMapper().convertValue(params, McpSchema.InitializeRequest.class);
            return Optional.empty();
        } catch (IllegalArgumentException | JacksonException e) {
            return Optional.of(describe(params, jacksonCause(e)));
        }
    }

    private static JacksonException jacksonCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JacksonException j) {
                return j;
            }
        }
        return null;
    }

    private static String describe(JsonNode params, JacksonException e) {
        List<JacksonException.Reference> path = e == null ? List.of() : e.getPath();
        if (path.isEmpty()) {
            return "initialize params do not have the specification's shape {protocolVersion, capabilities, clientInfo}";
        }
        StringBuilder name = new StringBuilder();
        JsonNode value = params;
        for (JacksonException.Reference ref : path) {
            if (ref.getPropertyName() != null) {
                name.append(name.isEmpty() ? "" : ".").append(ref.getPropertyName());
                value = value == null ? null : value.get(ref.getPropertyName());
            } else {
                name.append('[').append(ref.getIndex()).append(']');
                value = value == null ? null : value.get(ref.getIndex());
            }
        }
        String needs = e instanceof MismatchedInputException m && m.getTargetType() != null ? kindOf(m.getTargetType()) : null;
        return "initialize: \"" + name + "\" " + (needs == null ? "has a value of the wrong kind" : "must be " + needs)
                + ", got " + kindOf(value);
    }

    /** The JSON kind a Java type is read from. */
    static String kindOf(Class<?> type) {
        if (type == String.class || type == Character.class || type == char.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != void.class)) {
            return "a number";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        // Records and maps alike are read from JSON objects; a field typed Object takes anything.
        return type == Object.class ? null : "an object";
    }

    /** The kind of value sent, for the message. */
    static String kindOf(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "nothing";
        }
        if (value.isNull()) {
            return "null";
        }
        if (value.isString()) {
            return "a string";
        }
        if (value.isNumber()) {
            return "a number";
        }
        if (value.isBoolean()) {
            return "true or false";
        }
        return value.isArray() ? "an array" : "an object";
    }
}
