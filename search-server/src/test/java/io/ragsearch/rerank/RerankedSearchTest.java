package io.ragsearch.rerank;

import java.util.OptionalDouble;
import java.util.Optional;
import io.ragsearch.search.RetrievalMode;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.rerank.RerankerModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.metrics.Metrics;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.ProjectLoader;
import io.ragsearch.search.SearchHit;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.search.SearchResponse;
import io.ragsearch.search.SearchService;
import io.ragsearch.search.TestProjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trained cross-encoder reorders and gates; the cost stand-in runs but changes nothing. */
class RerankedSearchTest {

    @TempDir
    Path dir;

    private SearchService service(ProjectCatalog catalog, RerankerModel ref, String name) throws Exception {
        RerankerFactory factory = new RerankerFactory(TestProjects.REGISTRY, new SessionSettings(1, SessionSettings.Arena.SHRINK));
        ProjectLoader loader = new ProjectLoader(TestProjects::tokenizer, TestProjects::embedder, r -> {
            try {
                return factory.create(r);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ProjectSettings plain = ProjectSettings.ofDirectory(name, corpus());
        catalog.put(loader.load((ref == null ? plain : plain.withReranker(ref)).withRetrieval(
                new ProjectSettings.Retrieval(Optional.empty(), RetrievalMode.LEXICAL, OptionalDouble.of(0.5)))));
        return new SearchService(catalog, TestProjects::embedder, SearchLimits.DEFAULTS, new RerankLimiter(1, 60_000, new Metrics()));
    }

    private Path corpus() throws Exception {
        Path c = dir.resolve("corpus");
        if (!Files.isDirectory(c)) {
            Files.createDirectories(c);
            Files.writeString(c.resolve("rules.md"), """
                    # Rules
                    ### Article 1 (Leave)
                    Leave.
                    ### Article 2 (Leave details)
                    Leave is fifteen days a year, granted by the manager on request, with one extra day for every two years.
                    ### Article 3 (Other)
                    Nothing about that here.
                    """);
        }
        return c;
    }

    @Test
    void aTrainedCrossEncoderSetsOrderAndRelevance() throws Exception {
        Path model = TinyCrossEncoderModel.write(dir.resolve("model"), false);
        ProjectCatalog catalog = new ProjectCatalog();
        SearchService search = service(catalog, RerankerModel.directory(model, null), "trained");
        SearchResponse r = search.search("trained", "leave", 5);
        // The tiny model scores longer passages higher: Article 2 first, with its probability as relevance.
        assertEquals("Article 2", r.results().get(0).article(), r.results().toString());
        assertEquals("model", r.reranker(), "a trained reranker is named by its model directory");
        SearchHit top = r.results().get(0);
        assertTrue(top.score() > 0.9, "sigmoid(0.25 × ~40 − 2): " + top.score());
        // The gate decides once per query, on the best probability: Article 1 (one passage word)
        // scores low under the cross-encoder but stays in the ranked answer, after Article 2.
        SearchHit second = r.results().get(1);
        assertEquals("Article 1", second.article(), r.results().toString());
        assertTrue(second.score() < 0.5, "sigmoid(0.25 × 1 − 2): " + second.score());
        assertTrue(r.gate().passed());
        assertEquals(top.score(), r.gate().bestScore(), 1e-4);
    }

    @Test
    void theCostStandInRunsButLeavesOrderAndGateAlone() throws Exception {
        ProjectCatalog plainCatalog = new ProjectCatalog();
        SearchResponse plain = service(plainCatalog, null, "plain").search("plain", "leave", 5);
        ProjectCatalog standInCatalog = new ProjectCatalog();
        SearchService withStandIn = service(standInCatalog, RerankerModel.builtin(RerankerFactory.STAND_IN, 64), "stand-in");
        SearchResponse standIn = withStandIn.search("stand-in", "leave", 5);
        assertEquals(plain.results().stream().map(SearchHit::article).toList(), standIn.results().stream().map(SearchHit::article).toList());
        assertEquals(plain.results().stream().map(SearchHit::score).toList(), standIn.results().stream().map(SearchHit::score).toList());
        assertEquals("minilm-pair (cost stand-in)", standIn.reranker());
        assertEquals("none", plain.reranker());
        assertTrue(standInCatalog.get("stand-in").rerankDescription().contains("never changes order"));
    }
}
