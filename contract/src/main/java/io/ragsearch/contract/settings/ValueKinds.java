package io.ragsearch.contract.settings;

import java.util.Collection;

/**
 * What a setting's Java type means to a person writing YAML, and YAML-binding messages without
 * Java class names: the server's configuration and the operator's RagSearch files answer the
 * same mistakes in the same words.
 */
public final class ValueKinds {
    private ValueKinds() {
    }

    /** "a whole number", "a number", "true or false", "text", "a list", or {@code otherwise} for a nested map. */
    public static String of(Class<?> type, String otherwise) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "text";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        return otherwise;
    }

    /** Backquoted Java names (`java.lang.Integer`, `JsonToken.START_ARRAY`) become the kind or their last part. */
    public static String withoutClassNames(String message) {
        return message.replaceAll("`java\\.lang\\.(Integer|Long)`|\\b(int|long)\\b(?= \\()", "whole number")
                .replaceAll("`[A-Za-z0-9_$.]+\\.([A-Za-z0-9_$]+)`", "$1")
                .replaceAll("\\s*\\(but could if coercion was enabled[^)]*\\)", "");
    }
}
