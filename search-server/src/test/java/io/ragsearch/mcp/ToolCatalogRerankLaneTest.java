package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.metrics.Metrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The rerank lane as the catalog uses it: a tool's {@link ToolDefinition#reranks()} decides, per
 * call and after the input check, whether the body runs in the executor's rerank lane or on the
 * general tool pool. Both protocol revisions and stdio call through {@link ToolCatalog#call}, so
 * this is the one place the lane is chosen.
 */
class ToolCatalogRerankLaneTest {

    private static final Map<String, Object> INPUT = Schemas.closedObject(Schemas.props(
            "project", Schemas.string("project")), List.of("project"));

    private static ToolDefinition tool(java.util.function.Function<Map<String, Object>, ToolOutcome> body) {
        return new ToolDefinition("search", "Search", "test search", INPUT, Schemas.object(Schemas.props(), List.of()),
                ToolDefinition.Hints.readOnly("Search"), (args, caller) -> body.apply(args), args -> "reranked".equals(args.get("project")));
    }

    private static ToolOutcome threadName(Map<String, Object> args) {
        return ToolResults.success(Thread.currentThread().getName(), null);
    }

    @Test
    void aCallThatReranksRunsInTheLaneAndTheOthersOnTheToolPool() {
        Metrics metrics = new Metrics();
        try (ToolExecutor executor = new ToolExecutor(new ToolPoolSettings(2, 8), new RerankLaneSettings(1, 4, 1_000), metrics)) {
            ToolCatalog catalog = new ToolCatalog(List.of(tool(ToolCatalogRerankLaneTest::threadName)), executor);
            ToolDefinition search = catalog.find("search").orElseThrow();

            String reranked = catalog.call(search, Map.of("project", "reranked")).block(Duration.ofSeconds(10)).text();
            String plain = catalog.call(search, Map.of("project", "plain")).block(Duration.ofSeconds(10)).text();

            assertTrue(reranked.startsWith("rerank-tool-"), reranked);
            assertTrue(plain.startsWith("tool-"), plain);
            ToolOutcome invalid = catalog.call(search, Map.of("project", "reranked", "extra", 1)).block(Duration.ofSeconds(10));
            assertTrue(invalid.isError() && invalid.text().startsWith("invalid arguments"), invalid.text());
        }
    }

    @Test
    void withoutALaneEveryCallRunsOnTheToolPool() {
        try (ToolExecutor executor = new ToolExecutor(new ToolPoolSettings(2, 8), new Metrics())) {
            ToolCatalog catalog = new ToolCatalog(List.of(tool(ToolCatalogRerankLaneTest::threadName)), executor);
            String reranked = catalog.call(catalog.find("search").orElseThrow(), Map.of("project", "reranked"))
                    .block(Duration.ofSeconds(10)).text();
            assertTrue(reranked.startsWith("tool-"), reranked);
        }
    }

    @Test
    void aFullLaneSaysBusyWhileTheToolPoolKeepsAnswering() throws Exception {
        Metrics metrics = new Metrics();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        try (ToolExecutor executor = new ToolExecutor(new ToolPoolSettings(1, 1), new RerankLaneSettings(1, 1, 300), metrics)) {
            ToolCatalog catalog = new ToolCatalog(List.of(tool(args -> {
                if ("reranked".equals(args.get("project"))) {
                    holding.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return threadName(args);
            })), executor);
            ToolDefinition search = catalog.find("search").orElseThrow();

            Mono<ToolOutcome> running = catalog.call(search, Map.of("project", "reranked")).cache();
            running.subscribe();
            assertTrue(holding.await(10, TimeUnit.SECONDS), "the first reranking call took the lane's thread");
            Mono<ToolOutcome> queued = catalog.call(search, Map.of("project", "reranked")).cache();
            queued.subscribe();
            ToolOutcome refused = catalog.call(search, Map.of("project", "reranked")).block(Duration.ofSeconds(10));
            assertTrue(refused.isError() && refused.text().startsWith("busy, retry: every rerank slot is taken"), refused.text());

            // The general pool has one thread and one queue place, and neither is held by the lane.
            ToolOutcome plain = catalog.call(search, Map.of("project", "plain")).block(Duration.ofSeconds(10));
            assertFalse(plain.isError(), plain.text());
            assertTrue(plain.text().startsWith("tool-"), plain.text());

            ToolOutcome timedOut = queued.block(Duration.ofSeconds(10));
            assertTrue(timedOut.isError() && timedOut.text().startsWith("busy, retry: no rerank slot freed within 300 ms"),
                    timedOut.text());
            release.countDown();
            assertTrue(running.block(Duration.ofSeconds(10)).text().startsWith("rerank-tool-"));
            assertTrue(metrics.render().contains("ragsearch_rerank_lane_busy_total 2"), metrics.render());
        }
    }
}
