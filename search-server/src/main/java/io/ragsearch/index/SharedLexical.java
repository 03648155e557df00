package io.ragsearch.index;

import io.ragsearch.query.QueryAnalyzer;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.IndexReader;

/**
 * The parts of a {@link ProjectIndex} that cost a build (the Lucene reader and the analyzers
 * reading queries against it), owned by every index view over them: a project's lexical-first
 * index and the same index with its vectors share one, so the lexical index is built once per
 * start. Each view releases it when closed; the last release closes the reader and analyzers,
 * so closing one view never pulls them from under the other.
 */
final class SharedLexical {

    private final IndexReader reader;
    private final QueryAnalyzer queryAnalyzer;
    /** Views holding this; 0 once closed (a view cannot be added then). */
    private final AtomicInteger holders = new AtomicInteger(1);

    SharedLexical(IndexReader reader, QueryAnalyzer queryAnalyzer) {
        this.reader = reader;
        this.queryAnalyzer = queryAnalyzer;
    }

    /** One more view holds this; fails once the last view has closed it. */
    SharedLexical acquire() {
        holders.updateAndGet(n -> {
            if (n == 0) {
                throw new IllegalStateException("the lexical index is closed");
            }
            return n + 1;
        });
        return this;
    }

    /** A view lets go; the last one closes the reader and the analyzers. */
    void release() {
        if (holders.decrementAndGet() != 0) {
            return;
        }
        try {
            reader.close();
        } catch (IOException e) {
            // in-memory: nothing to recover
        }
        queryAnalyzer.close();
    }
}
