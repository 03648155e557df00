package io.ragsearch.config;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.settings.SettingsRules;
import java.util.List;

/**
 * The server's use of the one rule set, {@link SettingsRules} in the contract (the operator
 * checks what it writes against the same rules): the problems become one {@link ConfigException}
 * listing them all, so a person fixes the file in one go.
 */
public final class ConfigValidator {

    private ConfigValidator() {
    }

    /** Throws a {@link ConfigException} listing every problem of the whole configuration. */
    public static void validate(ServerSettings c) {
        throwIfAny(problems(c));
    }

    /** Only the models section checked, for commands (ingest) that read nothing else from the file. */
    public static void validateModels(ServerSettings c) {
        throwIfAny(SettingsRules.embeddingProblems(c));
    }

    public static List<String> problems(ServerSettings c) {
        return SettingsRules.problems(c);
    }

    private static void throwIfAny(List<String> problems) {
        if (!problems.isEmpty()) {
            throw new ConfigException("invalid configuration:\n  - " + String.join("\n  - ", problems));
        }
    }
}
