package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.Pod;
import io.ragsearch.operator.model.EmbeddingStatus;
import io.ragsearch.operator.podadmin.EmbeddingState;
import io.ragsearch.operator.podadmin.PodAdminClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the article embedding progress of pods that run but are not ready (a first start embeds
 * after its startup probe, behind readiness) from their /info on every reconcile, and sums it up
 * for the status: the pod furthest behind, and how many still embed.
 */
final class EmbeddingReader {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddingReader.class);

    /** One pod's answer. */
    record PodEmbedding(String pod, EmbeddingState state) {
    }

    private final PodAdminClient client;
    private final int adminPort;

    EmbeddingReader(PodAdminClient client, int adminPort) {
        this.client = client;
        this.adminPort = adminPort;
    }

    List<PodEmbedding> read(List<Pod> pods) {
        List<PodEmbedding> out = new ArrayList<>();
        for (Pod pod : pods) {
            try {
                client.embedding(pod.getStatus().getPodIP(), adminPort)
                        .filter(EmbeddingState::inProgress)
                        .ifPresent(state -> out.add(new PodEmbedding(pod.getMetadata().getName(), state)));
            } catch (IOException | RuntimeException e) {
                // A pod still loading its models may not answer yet: the next reconcile asks again.
                LOG.debug("/info of pod {}/{} not readable: {}", pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                        e.getMessage());
            }
        }
        return out;
    }

    /** The status part: the pod with the smallest share embedded, or null when no pod embeds. Pure. */
    static EmbeddingStatus summary(List<PodEmbedding> embedding) {
        return embedding.stream()
                .min(Comparator.comparingDouble((PodEmbedding p) -> share(p.state())).thenComparing(PodEmbedding::pod))
                .map(behind -> {
                    EmbeddingStatus s = new EmbeddingStatus();
                    s.pods = embedding.size();
                    s.pod = behind.pod();
                    s.articlesEmbedded = behind.state().articlesEmbedded();
                    s.articlesTotal = behind.state().articlesTotal();
                    s.secondsLeft = behind.state().secondsLeft();
                    return s;
                })
                .orElse(null);
    }

    /** "rules-7c9-x embedding article vectors: 1200 of 20000, about 2100 s left" for the Ready condition. */
    static String describe(EmbeddingStatus s) {
        return s.pod + " embedding article vectors: " + s.articlesEmbedded + " of " + s.articlesTotal
                + (s.secondsLeft == null ? "" : ", about " + s.secondsLeft + " s left")
                + (s.pods > 1 ? " (" + s.pods + " pods embedding)" : "");
    }

    private static double share(EmbeddingState s) {
        return s.articlesTotal() <= 0 ? 1 : (double) s.articlesEmbedded() / s.articlesTotal();
    }
}
