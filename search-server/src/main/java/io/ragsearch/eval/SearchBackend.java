package io.ragsearch.eval;

import java.util.List;

/** Something that answers a search the way the search tool does: in process, over MCP, or the plain baseline. */
public interface SearchBackend extends AutoCloseable {

    /** A short name for reports ("ragsearch", "bm25 baseline", the server's URL). */
    String name();

    Answer search(String project, String query, int topK) throws Exception;

    @Override
    default void close() throws Exception {
    }

    /** The ranked articles returned, or refused ("no supporting documents"), with the gate's best evidence when known. */
    record Answer(List<ArticleRef> results, boolean refused, double bestScore) {
        public Answer {
            results = List.copyOf(results);
        }
    }
}
