package io.ragsearch.server;

import io.ragsearch.config.ServerEnvironment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.config.ConfigLoader;
import io.ragsearch.config.ConfigOverrides;
import io.ragsearch.config.ConfigValidator;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.Environment;
import io.ragsearch.contract.Golden;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.index.Language;
import io.ragsearch.rerank.RerankerModel;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.RetrievalMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The contract's golden files, read through the server's own configuration loader and calibration writer. */
class ContractGoldenFilesTest {

    @Test
    void theGoldenSettingsFileReadsResolvesAndMeansWhatTheOperatorMeant() {
        // The operator's pods give the database through the environment.
        ServerEnvironment env = ServerEnvironment.read(Map.of(Environment.DB_URL, "jdbc:postgresql://db:5432/ragsearch"));
        ServerSettings config = ConfigLoader.parse(Golden.text("server-settings.yaml"), "golden");
        assertEquals(List.of(), ConfigValidator.problems(env.applyTo(config)));
        AppSettings s = SettingsResolver.resolve(config, env);
        assertEquals(1, s.models().rerank().session().intraOpThreads());
        assertEquals(5000, s.models().rerank().queueTimeoutMillis());
        assertEquals("all-minilm-l6-v2", s.models().embedding().builtin());
        ProjectSettings labor = s.projects().get(0);
        assertEquals("labor-law", labor.name());
        assertEquals(Path.of("/corpus/labor-law"), labor.directory().orElseThrow().directory());
        assertEquals(List.of("*.md", "*.markdown", "*.txt"), labor.directory().orElseThrow().include());
        assertEquals(Language.KOREAN, labor.retrieval().language().orElseThrow());
        assertEquals(RetrievalMode.HYBRID, labor.retrieval().mode());
        assertEquals(OptionalDouble.of(0.4), labor.retrieval().gateThreshold());
        assertEquals(RerankerModel.builtin("minilm-pair", 256), labor.reranker().orElseThrow());
        assertTrue(s.databaseProject("handbook.en_v2").isPresent(), "a database project with settings");
    }

    @Test
    void theServersRulesAgreeWithTheContractsOnGoodAndBadFiles() throws Exception {
        YAMLMapper yaml = YAMLMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        String bad = """
                server: {mcpPort: 70000, toolThreads: 0}
                models:
                  embedding: {path: e5, pooling: max, maxSeqLen: 4}
                projects:
                  - name: Bad Name
                    source: {directory: x}
                    language: fr
                    retrieval: fuzzy
                    gate: {threshold: 2}
                    reranker: {builtin: minilm-pair, path: x, maxSeqLen: 9000}
                """;
        for (String text : List.of(Golden.text("server-settings.yaml") + "database: {url: \"jdbc:postgresql://db/r\"}\n", bad)) {
            List<String> server = ConfigValidator.problems(ConfigLoader.parse(text, "t"));
            List<String> contract = SettingsRules.problems(yaml.readValue(text, ServerSettings.class));
            assertEquals(fields(contract), fields(server), "server " + server + "\ncontract " + contract);
        }
    }

    /** The field paths the problems name: the wording may differ, the findings must not. */
    private static List<String> fields(List<String> problems) {
        return problems.stream().map(p -> p.split(" ")[0]).sorted().toList();
    }

    @Test
    void theCalibrationTheServerServesIsTheGoldenOneAfterARoundTrip() {
        String golden = Golden.text("calibration.json");
        Calibration measured = CalibrationJson.parse(golden);
        String served = CalibrationEndpoint.render(measured, null).orElseThrow();
        JsonMapper json = JsonMapper.builder().build();
        assertEquals(json.readTree(golden), json.readTree(served), "every field the golden file has, with its value");
        assertEquals(measured, CalibrationJson.parse(served));
        assertTrue(CalibrationEndpoint.render(null, null).isEmpty(), "nothing measured: /calibration answers 503");
    }
}
