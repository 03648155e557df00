package io.ragsearch.operator.manifest;

import io.ragsearch.contract.Golden;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract's golden pair: the operator renders golden/ragsearch.yaml into exactly the
 * configuration in golden/server-settings.yaml, which the server's tests read as written.
 */
class GoldenSettingsTest {

    private static CheckedSpec goldenSpec() {
        RagSearch golden = RagSearchFile.parse("golden/ragsearch.yaml", Golden.text("ragsearch.yaml"));
        // The golden spec is about the configuration; the image (required by the CRD) does not reach it.
        golden.getSpec().image = "ragsearch/search-server:golden";
        SpecCheck.Result result = SpecCheck.check(golden, null);
        assertTrue(result.valid(), result.problems().toString());
        return result.spec().orElseThrow();
    }

    @Test
    void theGoldenSpecRendersTheGoldenSettings() {
        ServerSettings expected = RenderedSettings.parse(Golden.text("server-settings.yaml"));
        String rendered = ServerConfigYaml.render(goldenSpec());

        assertEquals(expected, RenderedSettings.parse(rendered), rendered);
    }

    @Test
    void whatIsRenderedLeavesAbsentFieldsOut() {
        String rendered = ServerConfigYaml.render(goldenSpec());

        assertTrue(!rendered.contains("null"), rendered);
        assertTrue(!rendered.contains("server:"), "listener settings come from the environment: " + rendered);
    }

    @Test
    void theGoldenSettingsFollowTheRulesOnceTheDatabaseComesFromTheEnvironment() {
        ServerSettings golden = RenderedSettings.parse(Golden.text("server-settings.yaml"));
        ServerSettings inThePod = new ServerSettings(golden.server(), golden.models(), golden.rerank(),
                new ServerSettings.Database("jdbc:postgresql://db/ragsearch", null, null, null), golden.projects());

        assertEquals(List.of(), SettingsRules.problems(inThePod));
    }
}
