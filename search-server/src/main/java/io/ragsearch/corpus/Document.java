package io.ragsearch.corpus;

import java.util.List;
import java.util.Optional;

/** One source file: {@code id} is its path below the project directory, without extension. */
public record Document(String id, String title, String sha256, List<Article> articles) {

    public Document {
        articles = List.copyOf(articles);
    }

    public Optional<Article> article(String label) {
        String wanted = ArticleLabels.normalize(label);
        return articles.stream().filter(a -> ArticleLabels.normalize(a.label()).equals(wanted)).findFirst();
    }

    public long liveArticleCount() {
        return articles.stream().filter(a -> !a.deleted()).count();
    }
}
