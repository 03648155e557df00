package io.ragsearch.store;

import io.ragsearch.corpus.Corpus;
import java.util.List;

/**
 * A project as the database holds it. {@code vectors}: the stored embeddings of the live
 * articles in corpus order (what IndexBuilder expects), or null when the project stores none;
 * {@code embeddingDigest} says which model made them. Bad rows are left out of the corpus and
 * listed in {@code problems}.
 */
public record StoredProject(String name, String description, long version, Corpus corpus, float[][] vectors,
                            String embeddingModel, String embeddingDigest, List<String> problems) {
}
