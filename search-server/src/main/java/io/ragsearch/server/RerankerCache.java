package io.ragsearch.server;

import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.rerank.Reranker;
import io.ragsearch.rerank.RerankerFactory;
import io.ragsearch.rerank.RerankerModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** One reranker per distinct model setting; the registry shares the session between equal models. */
final class RerankerCache {

    private final Map<RerankerModel, Reranker> rerankers = new ConcurrentHashMap<>();
    private final RerankerFactory factory;
    private final Consumer<String> phase;

    RerankerCache(ModelRegistry registry, SessionSettings session, Consumer<String> phase) {
        this.factory = new RerankerFactory(registry, session);
        this.phase = phase;
    }

    Reranker get(RerankerModel model) {
        return rerankers.computeIfAbsent(model, key -> {
            phase.accept("loading reranker " + key.describe());
            try {
                return factory.create(key);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    List<Reranker> all() {
        return List.copyOf(rerankers.values());
    }
}
