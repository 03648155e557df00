package io.ragsearch.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.index.Language;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.RetrievalMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration file resolved once into every component's settings. */
class SettingsResolverTest {

    @TempDir
    Path dir;

    private static AppSettings resolve(ServerSettings file, Map<String, String> env) {
        return SettingsResolver.resolve(file, ServerEnvironment.read(env));
    }

    @Test
    void readsYamlResolvesRelativeDirectoriesAndAppliesEnvironment() throws IOException {
        Files.writeString(dir.resolve("c.yaml"), """
                server:
                  mcpPort: 9000
                  toolThreads: 3
                projects:
                  - name: rules
                    description: Company rules
                    source: {directory: corpus/rules}
                    retrieval: lexical
                    language: ko
                    gate: {threshold: 0.6}
                    reranker: {path: bge, maxSeqLen: 64}
                """);
        AppSettings s = resolve(ConfigLoader.load(dir.resolve("c.yaml")),
                Map.of("RAGSEARCH_ADMIN_PORT", "9100", "RAGSEARCH_BIND_ADDRESS", "127.0.0.1", "RAGSEARCH_MODEL_DIR", "/models"));
        assertEquals(9000, s.serving().mcp().port());
        assertEquals(9100, s.serving().admin().port());
        assertEquals("127.0.0.1", s.serving().mcp().bindAddress());
        assertEquals(3 + 32, s.serving().mcp().maxInFlightRequests(), "threads and queue, when not configured");
        ProjectSettings p = s.projects().get(0);
        assertEquals(dir.resolve("corpus/rules"), p.directory().orElseThrow().directory());
        assertEquals(new ProjectSettings.Retrieval(Optional.of(Language.KOREAN), RetrievalMode.LEXICAL, OptionalDouble.of(0.6)),
                p.retrieval());
        assertEquals(Path.of("/models/bge"), p.reranker().orElseThrow().directory(), "relative to RAGSEARCH_MODEL_DIR");
        assertEquals(64, p.reranker().orElseThrow().maxSeqLen());
    }

    @Test
    void absentFieldsTakeTheDefaultsInEffectBefore() {
        AppSettings s = resolve(ConfigLoader.parse("""
                database: {url: "jdbc:postgresql://db/ragsearch"}
                projects:
                  - name: rules
                    source: {directory: /srv/rules}
                  - name: stored
                    source: {database: true}
                """, "t"), Map.of());
        assertEquals("127.0.0.1", s.serving().mcp().bindAddress());
        assertEquals(8080, s.serving().mcp().port());
        assertEquals(8081, s.serving().admin().port());
        assertEquals(null, s.serving().mcp().bearerToken());
        assertEquals(Math.max(2, Runtime.getRuntime().availableProcessors()), s.serving().tools().threads());
        assertEquals(32, s.serving().tools().queue());
        assertEquals(1000, s.serving().limits().maxQueryChars());
        assertEquals(1, s.models().rerank().concurrency());
        assertEquals(1_000, s.models().rerank().queueTimeoutMillis(), "short: a client hears at once that it should retry (issue 21)");
        assertEquals(new SessionSettings(1, SessionSettings.Arena.SHRINK), s.models().rerank().session());
        assertEquals(SessionSettings.Arena.SHRINK, s.models().embeddingSession().arena());
        assertTrue(s.models().calibration().enabled());
        assertEquals(List.of(1, 2, 4, 1), s.models().calibration().levels());
        assertEquals(EmbeddingModel.MINILM, s.models().embedding());
        assertEquals(Duration.ofSeconds(10), s.database().orElseThrow().pollInterval());
        ProjectSettings rules = s.projects().get(0);
        assertEquals(List.of("**.md", "**.markdown", "**.txt"), rules.directory().orElseThrow().include());
        assertEquals(false, rules.directory().orElseThrow().includeAddenda());
        assertEquals(ProjectSettings.Retrieval.DEFAULTS, rules.retrieval());
        assertEquals("", rules.description());
        assertEquals(Optional.empty(), rules.reranker());
        assertEquals(Optional.empty(), s.projects().get(1).directory(), "a database project");
        assertTrue(s.databaseProject("stored").isPresent());
        assertTrue(s.databaseProject("rules").isEmpty(), "a directory project is not a database project's settings");
    }

    @Test
    void aDefaultedPortClashAndABlankTokenAreConfigurationErrors() {
        ConfigException clash = assertThrows(ConfigException.class, () -> resolve(ConfigLoader.parse("""
                server: {mcpPort: 8081}
                projects: [{name: a, source: {directory: /x}}]
                """, "t"), Map.of()));
        assertTrue(clash.getMessage().contains("must differ (both 8081)"), clash.getMessage());
        ConfigException blank = assertThrows(ConfigException.class, () -> resolve(ConfigLoader.parse("""
                projects: [{name: a, source: {directory: /x}}]
                """, "t"), Map.of("RAGSEARCH_AUTH_TOKEN", " ")));
        assertTrue(blank.getMessage().contains("RAGSEARCH_AUTH_TOKEN is set but blank"), blank.getMessage());
        // Issue 21 (low): a one-character token and one with a line break inside were accepted.
        for (String bad : new String[] {"x", "seven77", "first-line\nsecond-line", "with space inside", "tab\there-token"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> resolve(ConfigLoader.parse("""
                    projects: [{name: a, source: {directory: /x}}]
                    """, "t"), Map.of("RAGSEARCH_AUTH_TOKEN", bad)), bad);
            assertTrue(e.getMessage().contains("RAGSEARCH_AUTH_TOKEN must be at least 8 characters"), e.getMessage());
            assertTrue(!e.getMessage().contains(bad.strip()) || bad.length() < 2, "the token itself is not echoed: " + e.getMessage());
        }
        for (String good : new String[] {"s3cret-token", "dG9rZW4tZm9yLXRlc3Rz==", "  trailing-newline-from-a-secret\n"}) {
            assertEquals(good.strip(), resolve(ConfigLoader.parse("""
                    projects: [{name: a, source: {directory: /x}}]
                    """, "t"), Map.of("RAGSEARCH_AUTH_TOKEN", good)).serving().mcp().bearerToken());
        }
    }
}
