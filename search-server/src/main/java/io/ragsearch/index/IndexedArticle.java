package io.ragsearch.index;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Document;

/** An article in a project index, with the document it belongs to. */
public record IndexedArticle(Document document, Article article) {
}
