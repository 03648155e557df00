package io.ragsearch.contract.settings;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The settings built by name mean what the canonical constructors, field by field, mean. */
class ServerSettingsTest {

    @Test
    void eachWitherSetsItsOwnFieldAndLeavesTheOthers() {
        assertEquals(new ServerSettings.Server("0.0.0.0", 1, 2, 3, 4, 5, 6, List.of("h"), List.of("o")),
                ServerSettings.Server.EMPTY.withBindAddress("0.0.0.0").withMcpPort(1).withAdminPort(2).withToolThreads(3)
                        .withToolQueue(4).withMaxInFlightRequests(5).withMaxQueryChars(6).withAllowedHosts(List.of("h"))
                        .withAllowedOrigins(List.of("o")));
        assertEquals(new ServerSettings.ModelRef(null, "/m", "cls", false, 512, "q: ", "p: ", "out", 1024),
                ServerSettings.ModelRef.ofPath("/m").withPooling("cls").withNormalize(false).withMaxSeqLen(512)
                        .withQueryPrefix("q: ").withPassagePrefix("p: ").withOutput("out").withDimension(1024));
        assertEquals(ServerSettings.ModelRef.EMPTY, ServerSettings.ModelRef.ofBuiltin("e5").withBuiltin(null), "a name and nothing else");
        assertEquals(new ServerSettings.Database("jdbc:x", "u", "p", 9),
                ServerSettings.Database.at("jdbc:x").withUser("u").withPassword("p").withPollSeconds(9));
        assertEquals(new ServerSettings.Rerank(2, 100, 1, "keep", false, List.of(1, 2), new ServerSettings.Retune(null, false, 10, 2000)),
                ServerSettings.Rerank.EMPTY.withConcurrency(2).withQueueTimeoutMillis(100).withIntraOpThreads(1).withArena("keep")
                        .withCalibrate(false).withCalibrationLevels(List.of(1, 2))
                        .withRetune(new ServerSettings.Retune(null, false, 10, 2000)));
        assertEquals(new ServerSettings.Project("rules", "d", new ServerSettings.Source("/docs", List.of("*.md"), null), "ko", "hybrid",
                        new ServerSettings.Gate(0.4), true, new ServerSettings.RerankerRef(null, "bge", 128, "softmax", 0)),
                ServerSettings.Project.ofDirectory("rules", "/docs").withDescription("d")
                        .withSource(ServerSettings.Source.ofDirectory("/docs").withInclude(List.of("*.md"))).withLanguage("ko")
                        .withRetrieval("hybrid").withThreshold(0.4).withIncludeAddenda(true)
                        .withReranker(ServerSettings.RerankerRef.ofPath("bge").withMaxSeqLen(128).withScoreMapping("softmax").withPositiveClass(0)));
        assertEquals(new ServerSettings.Source(null, null, true), ServerSettings.Project.fromDatabase("x").source());
        assertEquals("y", ServerSettings.Project.named("x").withName("y").name());
        ServerSettings.Server server = ServerSettings.Server.EMPTY.withMcpPort(1);
        ServerSettings.Models models = new ServerSettings.Models(ServerSettings.ModelRef.ofBuiltin("e5"));
        assertEquals(new ServerSettings(server, models, ServerSettings.Rerank.EMPTY, ServerSettings.Database.EMPTY, List.of(), null),
                ServerSettings.EMPTY.withServer(server).withModels(models).withRerank(ServerSettings.Rerank.EMPTY)
                        .withDatabase(ServerSettings.Database.EMPTY).withProjects(List.of()));
        assertEquals(new ServerSettings(null, null, null, null, null, null), ServerSettings.EMPTY);
    }
}
