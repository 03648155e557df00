package io.ragsearch.mcp;

import io.ragsearch.search.InvalidRequestException;
import java.util.Map;

/**
 * Reads the arguments a tool body gets. {@link ToolCatalog} has checked them against the input
 * schema already; these checks keep a body honest if it is ever called another way, and their
 * messages name the argument.
 */
final class ToolArguments {

    private ToolArguments() {
    }

    static String requiredString(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (!(v instanceof String s)) {
            throw new InvalidRequestException("argument '" + name + "' is required and must be a string");
        }
        return s;
    }

    static Integer optionalInt(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (v == null) {
            return null;
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return n.intValue();
        }
        throw new InvalidRequestException("argument '" + name + "' must be a whole number");
    }
}
