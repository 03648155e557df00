package io.ragsearch.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.corpus.Document;
import io.ragsearch.search.TestProjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ingest against the real PostgreSQL: round trip, idempotence, updates, removals, bad rows. */
class IngestIT {

    @TempDir
    Path dir;

    private Ingester.Report ingest(Database db, String project, boolean embeddings) throws Exception {
        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load(project, dir);
        return new Ingester(db).ingest(loaded.corpus(), "test " + project, dir.toString(), embeddings ? TestProjects.embedder() : null);
    }

    @Test
    void roundTripIsIdempotentAndFollowsChanges() throws Exception {
        String project = "ingest-" + System.nanoTime();
        Files.writeString(dir.resolve("leave.md"), "# Leave\n### Article 1 (Annual leave)\nFifteen days.\n### Article 2\n[Deleted]\n");
        Files.writeString(dir.resolve("travel.md"), "# Travel\n### Article 1 (Hotels)\nUp to 100,000 won.\n");
        try (Database db = TestDatabase.open()) {
            Ingester.Report first = ingest(db, project, true);
            assertEquals(List.of(2, 0, 0, 0, 3, 1L), List.of(first.added(), first.updated(), first.removed(), first.unchanged(),
                    first.articlesWritten(), first.version()));

            Ingester.Report again = ingest(db, project, true);
            assertFalse(again.changed(), "re-running on an unchanged directory changes nothing");
            assertEquals(2, again.unchanged());
            assertEquals(1L, again.version());

            StoredProject stored = new CorpusStore(db).read(project).orElseThrow();
            assertEquals(List.of("leave", "travel"), stored.corpus().documents().stream().map(Document::id).toList());
            assertEquals(new CorpusLoader(false).load(project, dir).corpus().documents(), stored.corpus().documents(),
                    "documents and articles come back exactly as the loader made them");
            assertEquals(2, stored.vectors().length, "one embedding per live article");
            assertEquals(TestProjects.embedder().digest(), stored.embeddingDigest());
            assertTrue(stored.problems().isEmpty(), stored.problems().toString());

            Files.writeString(dir.resolve("travel.md"), "# Travel\n### Article 1 (Hotels)\nUp to 120,000 won in Seoul.\n");
            Ingester.Report changed = ingest(db, project, true);
            assertEquals(List.of(0, 1, 0, 1, 2L), List.of(changed.added(), changed.updated(), changed.removed(), changed.unchanged(),
                    changed.version()));

            Files.delete(dir.resolve("leave.md"));
            Ingester.Report removed = ingest(db, project, true);
            assertEquals(1, removed.removed());
            assertEquals(3L, removed.version());
            assertEquals(List.of("travel"), new CorpusStore(db).read(project).orElseThrow().corpus().documents().stream()
                    .map(Document::id).toList());

            // Dropping embeddings rewrites every document: stored vectors must match what serve will use.
            Ingester.Report lexical = ingest(db, project, false);
            assertEquals(1, lexical.updated());
            assertNull(new CorpusStore(db).read(project).orElseThrow().vectors());
        }
    }

    /**
     * Issue 21, medium 8: a NUL byte in one file, or two files with one id, aborted the whole ingest
     * with a raw PostgreSQL error naming no file; issue 32: so did a NUL made by an escape in the front
     * matter. Now each is that file's problem and the rest is written.
     */
    @Test
    void oneBadFileCostsThatFileNotTheIngest() throws Exception {
        String project = "badfiles-" + System.nanoTime();
        Files.writeString(dir.resolve("good.md"), "# Good\n### Article 1 (A)\nAlpha.\n");
        Files.writeString(dir.resolve("dup.md"), "# Dup\n### Article 1 (A)\nFirst text.\n");
        Files.writeString(dir.resolve("dup.txt"), "# Dup\n### Article 1 (A)\nSecond text.\n");
        Files.write(dir.resolve("nul.md"), "# Nul\n### Article 1 (A)\nBefore\u0000after.\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        // Issue 32: no NUL byte in the file, but a YAML escape makes one in the title; PostgreSQL refused the write.
        Files.writeString(dir.resolve("nul-title.md"), "---\ntitle: \"a\\u0000b\"\n---\n### Article 1 (A)\nEscaped.\n");
        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load(project, dir);
        String problems = String.join("\n", loaded.problems());
        assertTrue(problems.contains("nul-title: a NUL character in its front matter's title (from an escape), not text, left out"),
                problems);
        assertTrue(problems.contains("dup.txt: the same document id 'dup' as dup.md, left out; dup.md is served (rename one of them)"), problems);
        assertTrue(problems.contains("nul: a NUL byte at byte"), problems);
        try (Database db = TestDatabase.open()) {
            Ingester.Report r = new Ingester(db).ingest(loaded.corpus(), "test", dir.toString(), null);
            assertEquals(2, r.added());
            StoredProject stored = new CorpusStore(db).read(project).orElseThrow();
            assertEquals(List.of("dup", "good"), stored.corpus().documents().stream().map(Document::id).toList());
            assertTrue(stored.corpus().documents().get(0).articles().get(0).body().contains("First text"));
        } finally {
            TestDatabase.execute("DELETE FROM projects WHERE name = '" + project + "'");
        }
    }

    @Test
    void badRowsAreReportedAndSkipped() throws Exception {
        String project = "badrows-" + System.nanoTime();
        Files.writeString(dir.resolve("rules.md"), "# Rules\n### Article 1 (A)\nAlpha.\n### Article 2 (B)\nBeta.\n### Article 3 (C)\nGamma.\n");
        try (Database db = TestDatabase.open()) {
            ingest(db, project, true);
            TestDatabase.execute("UPDATE articles SET body = '' WHERE project = '" + project + "' AND label = 'Article 2'");
            TestDatabase.execute("UPDATE articles SET embedding = '\\x00000000'::bytea WHERE project = '" + project + "' AND label = 'Article 3'");
            StoredProject stored = new CorpusStore(db).read(project).orElseThrow();
            assertEquals(List.of("Article 1"), stored.corpus().documents().get(0).articles().stream().map(a -> a.label()).toList());
            assertEquals(1, stored.vectors().length, "vectors stay aligned with the articles kept");
            String problems = String.join("\n", stored.problems());
            assertTrue(problems.contains("rules Article 2: no body, skipped"), problems);
            assertTrue(problems.contains("rules Article 3: embedding of 1 values, expected 384, skipped"), problems);
            assertNotNull(new CorpusStore(db).versions().get(project));
        }
    }
}
