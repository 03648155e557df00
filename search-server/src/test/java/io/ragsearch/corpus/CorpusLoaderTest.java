package io.ragsearch.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusLoaderTest {

    @TempDir
    Path dir;

    @Test
    void loadsFilesAsDocumentsWithIdsTitlesAndArticles() throws IOException {
        Files.createDirectories(dir.resolve("hr"));
        Files.writeString(dir.resolve("hr/leave.md"), "---\n제목: 휴가규정\n---\n# 다른 제목\n##### 제1조 (목적)\n목적.\n");
        Files.writeString(dir.resolve("notes.txt"), "# Notes\n## First\nOne.\n");
        Files.writeString(dir.resolve("image.png"), "not a document");

        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", dir);

        Corpus corpus = loaded.corpus();
        assertEquals(List.of("hr/leave", "notes"), corpus.documents().stream().map(Document::id).toList());
        assertEquals("휴가규정", corpus.document("hr/leave").orElseThrow().title(), "front matter title wins");
        assertEquals("Notes", corpus.document("notes").orElseThrow().title(), "first heading otherwise");
        assertEquals(2, corpus.articleCount());
        assertTrue(loaded.problems().isEmpty(), loaded.problems().toString());
    }

    @Test
    void aCorpusFoldersPaperworkIsNotServedAsDocuments() throws IOException {
        Files.createDirectories(dir.resolve("laws"));
        Files.writeString(dir.resolve("leave.md"), "##### 제1조 (목적)\n목적.\n");
        for (String paperwork : List.of("SOURCE.txt", "README.md", "laws/readme.markdown", "LICENSE.txt", "LICENCE", "License-ko.md",
                "source_notes.txt")) {
            Files.writeString(dir.resolve(paperwork), "# About this corpus\nWhere the statutes come from.\n");
        }
        Files.writeString(dir.resolve("laws/sources-of-law.md"), "##### 제1조 (법원)\n법원.\n");

        Corpus corpus = new CorpusLoader(false, List.of("**")).load("p", dir).corpus();

        assertEquals(List.of("laws/sources-of-law", "leave"), corpus.documents().stream().map(Document::id).toList());
    }

    @Test
    void aMountedConfigMapCountsEachFileOnce() throws IOException {
        // The kubelet's layout: real files in a timestamped dot-directory, ..data linking to it,
        // and one top-level link per key.
        Path version = Files.createDirectories(dir.resolve("..2026_12_02_19_00_00.1"));
        Files.writeString(version.resolve("leave.md"), "##### 제1조 (목적)\n목적.\n");
        Files.createSymbolicLink(dir.resolve("..data"), version.getFileName());
        Files.createSymbolicLink(dir.resolve("leave.md"), Path.of("..data/leave.md"));

        Corpus corpus = new CorpusLoader(false).load("p", dir).corpus();

        assertEquals(List.of("leave"), corpus.documents().stream().map(Document::id).toList());
    }

    @Test
    void badFilesAreReportedAndLeftOutWhileTheRestLoads() throws IOException {
        Files.writeString(dir.resolve("good.md"), "##### 제1조 (목적)\n목적.\n");
        Files.write(dir.resolve("latin1.md"), new byte[] {(byte) 0xC0, (byte) 0xFF, 'x'});
        Files.writeString(dir.resolve("empty.md"), "   \n");
        Files.writeString(dir.resolve("badyaml.md"), "---\ntitle: [unclosed\n---\n##### 제1조 (목적)\n본문.\n");

        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", dir);

        assertEquals(List.of("badyaml", "good"), loaded.corpus().documents().stream().map(Document::id).toList());
        String problems = String.join("\n", loaded.problems());
        assertTrue(problems.contains("latin1: not UTF-8"), problems);
        assertTrue(problems.contains("empty: no text"), problems);
        assertTrue(problems.contains("badyaml: front matter is not valid YAML"), problems);
    }

    @Test
    void includeGlobsChooseTheFiles() throws IOException {
        Files.writeString(dir.resolve("law.md"), "##### 제1조 (목적)\n목적.\n");
        Files.writeString(dir.resolve("notes.txt"), "# Notes\nKept beside the rules.\n");
        assertEquals(List.of("law", "notes"), new CorpusLoader(false).load("p", dir).corpus().documents().stream()
                .map(Document::id).toList());
        assertEquals(List.of("law"), new CorpusLoader(false, List.of("*.md")).load("p", dir).corpus().documents().stream()
                .map(Document::id).toList());
    }

    @Test
    void versionFollowsContent() throws IOException {
        Files.writeString(dir.resolve("a.md"), "##### 제1조 (목적)\n하나.\n");
        String v1 = new CorpusLoader(false).load("p", dir).corpus().version();
        assertEquals(v1, new CorpusLoader(false).load("p", dir).corpus().version());
        Files.writeString(dir.resolve("a.md"), "##### 제1조 (목적)\n둘.\n");
        assertNotEquals(v1, new CorpusLoader(false).load("p", dir).corpus().version());
    }

    @Test
    void aMissingDirectoryIsAClearError() {
        IOException e = assertThrows(IOException.class, () -> new CorpusLoader(false).load("p", dir.resolve("nope")));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void articleLookupToleratesSpacingAndCase() {
        Document d = new Document("d", "D", "x", List.of(new Article("제76조의3", 1, "", "본문", false),
                new Article("Article 4", 2, "", "body", false)));
        assertEquals("제76조의3", d.article("제 76 조의 3").orElseThrow().label());
        assertEquals("Article 4", d.article("article 4").orElseThrow().label());
    }

    @Test
    void linksOutOfTheCorpusAreReportedAndNeverRead(@TempDir Path outside) throws IOException {
        Files.writeString(dir.resolve("rules.md"), "# Rules\n## One\nText.\n");
        Path secret = Files.writeString(outside.resolve("secret.md"), "# Secret\nRAGSEARCH_AUTH_TOKEN=hunter2\n");
        Files.createSymbolicLink(dir.resolve("passwd.md"), Path.of("/etc/passwd"));
        Files.createSymbolicLink(dir.resolve("environ.md"), Path.of("/proc/self/environ"));
        Files.createSymbolicLink(dir.resolve("secret.md"), secret);
        Files.createSymbolicLink(dir.resolve("inside.md"), dir.resolve("rules.md"));

        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", dir);

        assertEquals(List.of("inside", "rules"), loaded.corpus().documents().stream().map(Document::id).toList(),
                "a link within the corpus is fine");
        for (String id : List.of("environ", "passwd", "secret")) {
            assertTrue(loaded.problems().contains(id + ": a link that leads outside the corpus directory, left out"),
                    loaded.problems().toString());
        }
        assertTrue(loaded.problems().stream().noneMatch(p -> p.contains(outside.toString())), "no paths in problems");
    }

    @Test
    void aFileOverTheSizeCapIsReportedAndSkipped() throws IOException {
        Files.writeString(dir.resolve("small.md"), "# Small\n## One\nText.\n");
        try (var file = new java.io.RandomAccessFile(dir.resolve("huge.md").toFile(), "rw")) {
            file.setLength(CorpusLoader.MAX_FILE_BYTES + 1); // sparse: no disk used
        }
        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", dir);
        assertEquals(List.of("small"), loaded.corpus().documents().stream().map(Document::id).toList());
        assertEquals(List.of("huge: larger than 32 MiB, left out"), loaded.problems());
    }
}
