package io.ragsearch.bench;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A large directory project made from a small one: every article's paragraphs become documents of
 * one article each, first one paragraph per document, then runs of two, three, … consecutive
 * paragraphs, until there are as many documents as asked. Every document's text is distinct, so
 * each one costs the model a real embedding (the vector cache keys vectors by text).
 */
final class SplitCorpus {

    /** Shorter blocks are list numbers or "삭제" remnants, not text an article would hold alone. */
    private static final int MIN_BLOCK_CHARS = 20;

    private SplitCorpus() {
    }

    /** One generated document: its file name (without extension) and its Markdown. */
    record GeneratedDocument(String id, String markdown) {
    }

    /** The documents, at most {@code count}; fewer only when the source has too little distinct text. */
    static List<GeneratedDocument> documents(Corpus source, int count) {
        List<Block> blocks = blocks(source);
        List<GeneratedDocument> out = new ArrayList<>(count);
        Set<String> seen = new LinkedHashSet<>();
        int longestArticle = blocks.stream().mapToInt(b -> b.article.size()).max().orElse(0);
        for (int run = 1; run <= longestArticle && out.size() < count; run++) {
            for (Block b : blocks) {
                if (out.size() == count) {
                    break;
                }
                if (b.index + run > b.article.size()) {
                    continue;
                }
                String body = String.join("\n\n", b.article.subList(b.index, b.index + run));
                if (!seen.add(b.title + "\n" + body)) {
                    continue;
                }
                String id = String.format(Locale.ROOT, "doc-%05d", out.size() + 1);
                String heading = b.title.isEmpty() ? b.label : b.label + " (" + b.title + ")";
                out.add(new GeneratedDocument(id, "# " + b.document + " (" + id + ")\n\n##### " + heading + "\n\n" + body + "\n"));
            }
        }
        return out;
    }

    /** Writes the documents as DIR/ID.md; the directory must be empty or new. */
    static void write(List<GeneratedDocument> documents, Path directory) throws IOException {
        Files.createDirectories(directory);
        try (var existing = Files.list(directory)) {
            if (existing.findAny().isPresent()) {
                throw new IOException(directory + " is not empty: the generated project must hold only its own documents");
            }
        }
        for (GeneratedDocument d : documents) {
            Files.writeString(directory.resolve(d.id() + ".md"), d.markdown(), StandardCharsets.UTF_8);
        }
    }

    /** A paragraph of a live article, with the article's paragraphs around it. */
    private record Block(String document, String label, String title, List<String> article, int index) {
    }

    private static List<Block> blocks(Corpus source) {
        List<Block> out = new ArrayList<>();
        for (Document d : source.documents()) {
            for (Article a : d.articles()) {
                if (a.deleted()) {
                    continue;
                }
                List<String> paragraphs = new ArrayList<>();
                for (String p : a.body().split("\\n\\s*\\n")) {
                    if (p.strip().length() >= MIN_BLOCK_CHARS) {
                        paragraphs.add(p.strip());
                    }
                }
                for (int i = 0; i < paragraphs.size(); i++) {
                    out.add(new Block(d.title(), a.label(), a.title(), List.copyOf(paragraphs), i));
                }
            }
        }
        return out;
    }
}
