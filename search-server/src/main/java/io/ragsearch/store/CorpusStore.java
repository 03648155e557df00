package io.ragsearch.store;

import io.ragsearch.corpus.Article;
import io.ragsearch.corpus.ArticleLimits;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.Document;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads projects out of the corpus record. */
public final class CorpusStore {

    /** NOTIFY channel: the payload is the project whose corpus version moved. */
    public static final String CHANNEL = "ragsearch_corpus";

    private final Database db;

    public CorpusStore(Database db) {
        this.db = db;
    }

    public Database database() {
        return db;
    }

    /** Every project's corpus version: what a server compares to decide on a rebuild. */
    public Map<String, Long> versions() throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = db.connection();
             PreparedStatement p = c.prepareStatement("SELECT name, corpus_version FROM projects ORDER BY name");
             ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }

    /**
     * One project, consistently (one REPEATABLE READ transaction). Articles without a body and
     * embeddings whose length differs from the first live one stored are reported and left out
     * (whether that length fits the model is checked when the project is built).
     */
    public Optional<StoredProject> read(String project) throws SQLException {
        try (Connection c = db.connection()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            try {
                return Optional.ofNullable(read(c, project));
            } finally {
                c.rollback();
                c.setReadOnly(false);
                c.setAutoCommit(true);
            }
        }
    }

    private static StoredProject read(Connection c, String project) throws SQLException {
        String description;
        long version;
        try (PreparedStatement p = c.prepareStatement("SELECT description, corpus_version FROM projects WHERE name = ?")) {
            p.setString(1, project);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                description = rs.getString(1);
                version = rs.getLong(2);
            }
        }
        Map<String, String[]> docs = new LinkedHashMap<>(); // id -> {title, sha256}
        try (PreparedStatement p = c.prepareStatement("SELECT id, title, sha256 FROM documents WHERE project = ? ORDER BY id")) {
            p.setString(1, project);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    docs.put(rs.getString(1), new String[] {rs.getString(2), rs.getString(3)});
                }
            }
        }
        Map<String, List<Article>> articles = new LinkedHashMap<>();
        List<float[]> vectors = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String model = null;
        String digest = null;
        boolean anyVector = false;
        boolean mixed = false;
        int dimension = 0; // the first live embedding's length; the others must match it
        try (PreparedStatement p = c.prepareStatement("SELECT document, ordinal, label, title, body, deleted, embedding, "
                + "embedding_model, embedding_digest FROM articles WHERE project = ? ORDER BY document, ordinal")) {
            p.setString(1, project);
            p.setFetchSize(500);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    String doc = rs.getString(1);
                    String label = rs.getString(3);
                    String body = rs.getString(5);
                    boolean deleted = rs.getBoolean(6);
                    byte[] embedding = rs.getBytes(7);
                    String where = ArticleLimits.shown(doc) + " " + ArticleLimits.shown(label);
                    // One row the index cannot hold is that row's problem, not the project's (issue 21).
                    java.util.Optional<String> unindexable = deleted ? java.util.Optional.empty()
                            : ArticleLimits.idProblem(doc).or(() -> ArticleLimits.labelProblem(label));
                    if (unindexable.isPresent()) {
                        problems.add(ArticleLimits.shown(doc) + ": " + unindexable.get());
                        continue;
                    }
                    if (!deleted && (body == null || body.isBlank())) {
                        problems.add(where + ": no body, skipped");
                        continue;
                    }
                    if (!deleted && embedding != null && dimension <= 0) {
                        dimension = embedding.length / Float.BYTES;
                    }
                    if (!deleted && embedding != null) {
                        if (embedding.length != dimension * Float.BYTES) {
                            problems.add(where + ": embedding of " + embedding.length / Float.BYTES + " values, expected "
                                    + dimension + ", skipped");
                            continue;
                        }
                        anyVector = true;
                        model = rs.getString(8);
                        String rowDigest = rs.getString(9);
                        if (digest != null && !digest.equals(rowDigest)) {
                            mixed = true; // rows of two models: no vector space to search in
                        }
                        digest = rowDigest;
                    }
                    if (!deleted) {
                        vectors.add(embedding == null ? null : Vectors32.decode(embedding));
                    }
                    articles.computeIfAbsent(doc, k -> new ArrayList<>())
                            .add(new Article(label, rs.getInt(2), rs.getString(4), body, deleted));
                }
            }
        }
        List<Document> documents = new ArrayList<>();
        docs.forEach((id, meta) -> {
            List<Article> list = articles.getOrDefault(id, List.of());
            if (!list.isEmpty()) {
                documents.add(new Document(id, meta[0], meta[1], list));
            }
        });
        float[][] stored = null;
        if (anyVector) {
            if (vectors.contains(null)) {
                problems.add("some live articles have no embedding: the vector leg is off until the project is re-ingested");
            } else if (mixed) {
                problems.add("live articles store embeddings of more than one model: the vector leg is off until the project is re-ingested");
            } else {
                stored = vectors.toArray(new float[0][]);
            }
        }
        return new StoredProject(project, description, version, new Corpus(project, documents, "v" + version), stored,
                stored == null ? null : model, stored == null ? null : digest, problems);
    }
}
