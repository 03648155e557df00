package io.ragsearch.eval;

import io.ragsearch.corpus.ArticleLabels;

/** One article by document id and label, as a question file names it and a search returns it. */
public record ArticleRef(String document, String article) {

    public ArticleRef {
        if (document == null || document.isBlank() || article == null || article.isBlank()) {
            throw new IllegalArgumentException("an article needs both document and article");
        }
    }

    /** Same document, same label after normalisation ("제 26 조" is "제26조"). */
    public boolean sameAs(ArticleRef other) {
        return document.equals(other.document)
                && ArticleLabels.normalize(article).equals(ArticleLabels.normalize(other.article));
    }

    @Override
    public String toString() {
        return document + " " + article;
    }
}
