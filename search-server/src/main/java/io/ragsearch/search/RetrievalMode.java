package io.ragsearch.search;

import java.util.Locale;

/** Which retrieval legs a project uses. AUTO resolves to HYBRID or LEXICAL when the project loads. */
public enum RetrievalMode {
    LEXICAL, VECTOR, HYBRID, AUTO;

    public static RetrievalMode parse(String value) {
        try {
            return valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown retrieval mode '" + value + "' (use lexical, vector, hybrid or auto)");
        }
    }

    public boolean usesVectors() {
        return this == VECTOR || this == HYBRID;
    }

    public boolean usesLexical() {
        return this == LEXICAL || this == HYBRID;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
