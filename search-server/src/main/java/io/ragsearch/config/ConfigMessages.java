package io.ragsearch.config;

import io.ragsearch.contract.settings.ValueKinds;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * A YAML reader's complaint as a configuration's author needs it: which setting, what kind of
 * value it takes, what was there. Jackson's own text names Java types and tokens
 * ({@code `java.lang.Integer` from Array value (token `JsonToken.START_ARRAY`)}) and not the key.
 */
final class ConfigMessages {

    private ConfigMessages() {
    }

    static String of(JacksonException e) {
        String at = path(e);
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown setting '" + u.getPropertyName() + "'" + (at.isEmpty() ? "" : " in " + at) + "; known there: "
                    + u.getKnownPropertyIds();
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null && !at.isEmpty()) {
            return at + ": expected " + ValueKinds.of(m.getTargetType(), "a map of settings") + (m instanceof InvalidFormatException f ? ", got '" + f.getValue() + "'" : "");
        }
        return withoutClassNames(e.getOriginalMessage()) + (at.isEmpty() ? "" : " at " + at);
    }

    private static String path(JacksonException e) {
        StringBuilder b = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                b.append(b.isEmpty() ? "" : ".").append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                b.append('[').append(ref.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    /** Backquoted Java names (`java.lang.Integer`, `JsonToken.START_ARRAY`) become their last part. */
    static String withoutClassNames(String message) {
        return message == null ? "rejected" : ValueKinds.withoutClassNames(message);
    }
}
