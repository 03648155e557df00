package io.ragsearch.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.mcp.McpRequestRules;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Crashes the fuzz tests found, kept as plain cases so they never come back. */
class FuzzRegressionsTest {

    /** Found by theGuardAnswersEveryHeaderCombination: "Content-Type: ;;;" threw ArrayIndexOutOfBounds (a 500). */
    @Test
    void aContentTypeOfOnlySeparatorsIs415() {
        McpRequestRules rules = new McpRequestRules(List.of("2025-06-18"), 1024);
        for (String type : List.of(";;;", ";", " ; ")) {
            McpRequestRules.Verdict v = rules.check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8),
                    type, null, null);
            assertEquals(415, ((McpRequestRules.Reject) v).status(), type);
        }
    }

    /**
     * Found by anyConfigurationIsAcceptedOrAConfigException: a null document gave a null configuration (NPE at startup).
     * Then it meant the defaults; since issue 21 (an empty file silently served the sample corpus) it is refused.
     */
    @Test
    void aConfigurationOfOnlyANullDocumentIsRefused() {
        for (String yaml : List.of("---\n", "null\n", "---\n...\n", "", "  \n", "# a comment\n")) {
            ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class, () -> ConfigLoader.parse(yaml, "c.yaml"));
            assertEquals("configuration c.yaml holds no settings: is it the right file? (without a configuration the server"
                    + " serves its sample corpus; say so by giving none)", e.getMessage(), yaml);
        }
    }
}
