package io.ragsearch.config;

import io.ragsearch.contract.settings.ServerSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {

    @TempDir
    Path dir;

    @Test
    void unknownFieldsAndMalformedYamlAreErrorsNamingTheProblem() {
        ConfigException typo = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse("server:\n  mcpPrt: 1\n", "test.yaml"));
        assertTrue(typo.getMessage().contains("mcpPrt"), typo.getMessage());
        ConfigException broken = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse("projects: [\n", "test.yaml"));
        assertTrue(broken.getMessage().contains("test.yaml"), broken.getMessage());
    }

    @Test
    void validationListsEveryProblemAtOnce() {
        ServerSettings c = ConfigLoader.parse("""
                server: {mcpPort: 8080, adminPort: 8080, toolThreads: 0}
                projects:
                  - name: Bad Name
                    source: {directory: x}
                  - name: ok
                    source: {directory: x}
                    retrieval: fuzzy
                    gate: {threshold: 2}
                  - name: ok
                """, "t");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigValidator.validate(c));
        for (String expected : new String[] {"must differ", "toolThreads", "Bad Name", "fuzzy", "threshold", "used twice",
                "projects[2].source.directory"}) {
            assertTrue(e.getMessage().contains(expected), expected + " in " + e.getMessage());
        }
    }

    @Test
    void badEmbeddingSettingsAreNamedWithWhatIsAllowed() {
        ServerSettings c = ConfigLoader.parse("""
                models:
                  embedding: {path: e5, pooling: max, maxSeqLen: 100000, output: " "}
                projects:
                  - name: ok
                    source: {directory: x}
                    reranker: {path: bge, maxSeqLen: 4}
                """, "t");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigValidator.validate(c));
        for (String expected : new String[] {"models.embedding.pooling must be one of [mean, cls, last] (got 'max')",
                "models.embedding.maxSeqLen must be 8..8192 tokens (got 100000)",
                "models.embedding.output must name a model output",
                "projects[0].reranker.maxSeqLen must be 8..8192 tokens (got 4)"}) {
            assertTrue(e.getMessage().contains(expected), expected + " in " + e.getMessage());
        }
        ConfigException both = assertThrows(ConfigException.class, () -> ConfigValidator.validateModels(ConfigLoader.parse("""
                models:
                  embedding: {builtin: all-minilm-l6-v2, path: e5, normalize: false}
                """, "t")));
        assertTrue(both.getMessage().contains("models.embedding needs exactly one of builtin or path"), both.getMessage());
        ConfigException typo = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                models:
                  embedding: {path: e5, queryPrefx: "query: "}
                """, "t"));
        assertTrue(typo.getMessage().contains("queryPrefx"), typo.getMessage());
    }

    /** Issue 21 (low): RAGSEARCH_CONFIG=/dev/zero ended in an OutOfMemoryError; a config file is read up to 1 MiB. */
    @Test
    void anEndlessOrHugeConfigurationFileIsRefusedUnread(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        ConfigException zero = assertThrows(ConfigException.class, () -> ConfigLoader.load(java.nio.file.Path.of("/dev/zero")));
        assertTrue(zero.getMessage().contains("larger than 1024 KiB"), zero.getMessage());
        java.nio.file.Path big = java.nio.file.Files.writeString(dir.resolve("big.yaml"), "# " + "x".repeat(2 << 20) + "\n");
        assertTrue(assertThrows(ConfigException.class, () -> ConfigLoader.load(big)).getMessage().contains("larger than"));
        java.nio.file.Path latin = java.nio.file.Files.write(dir.resolve("latin.yaml"), new byte[] {'#', ' ', (byte) 0xE9, '\n'});
        assertTrue(assertThrows(ConfigException.class, () -> ConfigLoader.load(latin)).getMessage().contains("not UTF-8"));
        java.nio.file.Path ok = java.nio.file.Files.writeString(dir.resolve("ok.yaml"), "projects:\n  - {name: a, source: {directory: docs}}\n");
        assertEquals(dir.resolve("docs").toString(), ConfigLoader.load(ok).projects().get(0).source().directory());
    }

    /** Issue 21 (low): an empty configuration file silently served the sample corpus instead of failing. */
    @Test
    void anEmptyConfigurationFileIsRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        for (String text : java.util.List.of("", "\n\n", "---\n", "# only a comment\n", "null\n")) {
            java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("c.yaml"), text);
            ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(file), text);
            assertEquals("configuration " + file + " holds no settings: is it the right file? (without a configuration the server"
                    + " serves its sample corpus; say so by giving none)", e.getMessage());
        }
    }

    /** Issue 21 (low): a key written twice was taken silently (the last one won); render refused it. */
    @Test
    void aDuplicateKeyIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                rerank: {concurrency: 1}
                rerank: {concurrency: 8}
                projects:
                  - {name: a, source: {directory: x}}
                """, "t"));
        assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("duplicate"), e.getMessage());
    }

    /** Issue 21, medium 9: 100000 intra-op threads grew the server to 3.9 GB and it never started; now refused before any model loads. */
    @Test
    void intraOpThreadsHaveAnUpperBound() {
        ServerSettings c = ConfigLoader.parse("""
                rerank: {intraOpThreads: 100000}
                projects:
                  - name: ok
                    source: {directory: x}
                """, "t");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigValidator.validate(c));
        assertTrue(e.getMessage().contains("rerank.intraOpThreads must be 1..256, got 100000"), e.getMessage());
        ConfigValidator.validate(ConfigLoader.parse("""
                rerank: {intraOpThreads: 256}
                projects:
                  - name: ok
                    source: {directory: x}
                """, "t"));
    }

    @Test
    void badEnvironmentPortIsAClearError() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ServerEnvironment.read(Map.of("RAGSEARCH_MCP_PORT", "eighty")));
        assertTrue(e.getMessage().contains("RAGSEARCH_MCP_PORT"), e.getMessage());
    }
}
