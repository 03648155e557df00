package io.ragsearch.corpus;

import java.util.List;
import java.util.Optional;

/**
 * The documents of one project. {@code version} identifies the content (a digest of the
 * documents' digests), so an index can tell whether it is stale.
 */
public record Corpus(String project, List<Document> documents, String version) {

    public Corpus {
        documents = List.copyOf(documents);
    }

    public Optional<Document> document(String id) {
        return documents.stream().filter(d -> d.id().equals(id)).findFirst();
    }

    public int articleCount() {
        return documents.stream().mapToInt(d -> d.articles().size()).sum();
    }
}
