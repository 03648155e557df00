package io.ragsearch.operator.podadmin;

/**
 * What a pod's /info says about the article embedding of its start ("embedding"): articles with
 * a vector of those that need one, the time left at the rate measured so far (null until known)
 * and the state (embedding, done, failed). A started pod that embeds is not ready yet; the
 * status shows how far it has come.
 */
public record EmbeddingState(int articlesEmbedded, int articlesTotal, Long secondsLeft, String state) {

    public static final String EMBEDDING = "embedding";

    public boolean inProgress() {
        return EMBEDDING.equals(state);
    }
}
