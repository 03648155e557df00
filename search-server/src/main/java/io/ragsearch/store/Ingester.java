package io.ragsearch.store;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.index.IndexedArticle;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Writes a parsed directory into the corpus record, idempotently: a document whose sha256 is
 * unchanged is skipped, a changed one is replaced whole, a missing one deleted; embeddings are
 * computed only for what is written. Everything happens in one transaction holding the
 * project's row lock, and a change bumps the corpus version and notifies the servers.
 */
public final class Ingester {

    private final Database db;

    public Ingester(Database db) {
        this.db = db;
    }

    /** What an ingest changed. {@code version}: the corpus version after it. */
    public record Report(String project, int added, int updated, int removed, int unchanged, int articlesWritten,
                         long version, boolean changed, String embeddingModel) {
    }

    /** @param embedder the model to store embeddings of, or null to store none (lexical-only projects) */
    public Report ingest(Corpus corpus, String description, String sourceRoot, TextEmbedder embedder) throws SQLException {
        String project = corpus.project();
        try (Connection c = db.connection()) {
            Migrations.apply(c);
            c.setAutoCommit(false);
            try {
                Report r = ingest(c, corpus, description, sourceRoot, embedder);
                c.commit();
                return r;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    private Report ingest(Connection c, Corpus corpus, String description, String sourceRoot, TextEmbedder embedder)
            throws SQLException {
        String project = corpus.project();
        try (PreparedStatement p = c.prepareStatement("INSERT INTO projects (name, description) VALUES (?, ?) "
                + "ON CONFLICT (name) DO NOTHING")) {
            p.setString(1, project);
            p.setString(2, description == null ? "" : description);
            p.executeUpdate();
        }
        String storedDescription;
        long version;
        try (PreparedStatement p = c.prepareStatement("SELECT corpus_version, description FROM projects WHERE name = ? FOR UPDATE")) {
            p.setString(1, project);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                version = rs.getLong(1);
                storedDescription = rs.getString(2);
            }
        }
        Map<String, String> existing = new HashMap<>();
        try (PreparedStatement p = c.prepareStatement("SELECT id, sha256 FROM documents WHERE project = ?")) {
            p.setString(1, project);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    existing.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        // Stored embeddings from another model (or none where we now store some) make every document stale.
        Set<String> storedDigests = new HashSet<>();
        try (PreparedStatement p = c.prepareStatement("SELECT DISTINCT embedding_digest FROM articles WHERE project = ? AND deleted = false")) {
            p.setString(1, project);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    storedDigests.add(rs.getString(1));
                }
            }
        }
        Set<String> wanted = new HashSet<>();
        wanted.add(embedder == null ? null : embedder.digest());
        boolean allStale = !existing.isEmpty() && !storedDigests.isEmpty() && !storedDigests.equals(wanted);

        int added = 0;
        int updated = 0;
        int unchanged = 0;
        int articlesWritten = 0;
        for (Document d : corpus.documents()) {
            String sha = existing.get(d.id());
            if (sha != null && sha.equals(d.sha256()) && !allStale) {
                unchanged++;
                continue;
            }
            if (sha == null) {
                added++;
            } else {
                updated++;
                delete(c, project, d.id());
            }
            articlesWritten += insert(c, project, d, sourceRoot, embedder);
        }
        Set<String> present = new HashSet<>();
        corpus.documents().forEach(d -> present.add(d.id()));
        int removed = 0;
        for (String id : existing.keySet()) {
            if (!present.contains(id)) {
                delete(c, project, id);
                removed++;
            }
        }
        boolean descriptionChanged = description != null && !description.isBlank() && !Objects.equals(description, storedDescription);
        boolean changed = added + updated + removed > 0 || descriptionChanged;
        if (changed) {
            try (PreparedStatement p = c.prepareStatement("UPDATE projects SET corpus_version = corpus_version + 1, updated_at = now(), "
                    + "description = CASE WHEN ? = '' THEN description ELSE ? END WHERE name = ? RETURNING corpus_version")) {
                String desc = description == null ? "" : description;
                p.setString(1, desc);
                p.setString(2, desc);
                p.setString(3, project);
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    version = rs.getLong(1);
                }
            }
            try (PreparedStatement p = c.prepareStatement("SELECT pg_notify(?, ?)")) {
                p.setString(1, CorpusStore.CHANNEL);
                p.setString(2, project);
                p.execute();
            }
        }
        return new Report(project, added, updated, removed, unchanged, articlesWritten, version, changed,
                embedder == null ? null : embedder.name());
    }

    private static void delete(Connection c, String project, String id) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("DELETE FROM documents WHERE project = ? AND id = ?")) {
            p.setString(1, project);
            p.setString(2, id);
            p.executeUpdate();
        }
    }

    private static int insert(Connection c, String project, Document d, String sourceRoot, TextEmbedder embedder) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO documents (project, id, title, source, sha256) VALUES (?, ?, ?, ?, ?)")) {
            p.setString(1, project);
            p.setString(2, d.id());
            p.setString(3, d.title());
            p.setString(4, sourceRoot + "/" + d.id());
            p.setString(5, d.sha256());
            p.executeUpdate();
        }
        List<Article> live = d.articles().stream().filter(a -> !a.deleted()).toList();
        float[][] vectors = embedder == null ? null
                : embedder.embedPassages(live.stream().map(a -> IndexBuilder.embeddingText(new IndexedArticle(d, a))).toList());
        Map<Article, float[]> byArticle = new HashMap<>();
        for (int i = 0; vectors != null && i < live.size(); i++) {
            byArticle.put(live.get(i), vectors[i]);
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO articles (project, document, ordinal, label, title, body, deleted, "
                + "embedding, embedding_model, embedding_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Article a : d.articles()) {
                float[] v = byArticle.get(a);
                p.setString(1, project);
                p.setString(2, d.id());
                p.setInt(3, a.ordinal());
                p.setString(4, a.label());
                p.setString(5, a.title());
                p.setString(6, a.body());
                p.setBoolean(7, a.deleted());
                p.setBytes(8, v == null ? null : Vectors32.encode(v));
                p.setString(9, v == null ? null : embedder.name());
                p.setString(10, v == null ? null : embedder.digest());
                p.addBatch();
            }
            p.executeBatch();
        }
        return d.articles().size();
    }

}
