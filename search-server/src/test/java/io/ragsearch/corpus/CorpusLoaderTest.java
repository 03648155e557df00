package io.ragsearch.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    /** Issue 21, high 4: a heading label over Lucene's 32 KB term limit used to end startup; now it costs that article. */
    @Test
    void aHeadingLabelOver32KbCostsOnlyThatArticle() throws IOException {
        String huge = "제" + "1".repeat(40_000) + "조"; // 40,006 UTF-8 bytes, one term in the index
        Files.writeString(dir.resolve("rules.md"), "##### 제1조 (목적)\n유지.\n##### " + huge + " (범위)\n사라짐.\n##### 제3조 (정의)\n유지.\n");
        Files.writeString(dir.resolve("other.md"), "##### 제1조 (목적)\n목적.\n");

        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", dir);

        assertEquals(List.of("other", "rules"), loaded.corpus().documents().stream().map(Document::id).toList());
        List<String> labels = loaded.corpus().document("rules").orElseThrow().articles().stream().map(Article::label).toList();
        assertFalse(labels.stream().anyMatch(l -> l.length() > 1_000), labels.toString());
        assertEquals(2, labels.size(), labels.toString());
        assertEquals(1, loaded.problems().size(), loaded.problems().toString());
        String problem = loaded.problems().get(0);
        assertTrue(problem.startsWith("rules: article '제111") && problem.contains("a heading label of 40006 bytes"), problem);
        assertTrue(problem.length() < 300, "the problem shows the label's start, not all of it: " + problem.length());
        // And the whole project indexes: the article that would have thrown is not there.
        io.ragsearch.index.IndexBuilder.build(loaded.corpus(), io.ragsearch.index.Language.KOREAN, null, null);
    }

    /** Issue 21, high 4: a path past the system's limit (4096 bytes) stopped the walk; now it is one problem. */
    @Test
    void aPathLongerThanTheSystemAllowsIsAProblemNotAnEnd() throws Exception {
        Path root = Files.createTempDirectory("ragsearch-deep");
        try {
            Files.writeString(root.resolve("a.md"), "##### 제1조 (목적)\n목적.\n");
            Files.writeString(root.resolve("z.md"), "##### 제1조 (목적)\n목적.\n");
            String part = "d".repeat(200);
            // Built one relative step at a time, as only relative paths can reach that deep.
            Process p = new ProcessBuilder("bash", "-c", "cd '" + root + "' && mkdir deep && cd deep && for i in $(seq 1 24); do mkdir "
                    + part + " && cd " + part + " || exit 1; done; printf '# Far\\n## Article 1\\nText.\\n' > far.md")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), out);

            CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", root);

            assertEquals(List.of("a", "z"), loaded.corpus().documents().stream().map(Document::id).toList());
            assertEquals(1, loaded.problems().size(), loaded.problems().toString());
            assertTrue(loaded.problems().get(0).contains("cannot be read (path too long), left out"), loaded.problems().toString());
            assertFalse(loaded.problems().get(0).contains(root.toString()), "no absolute path: " + loaded.problems());
            assertTrue(loaded.problems().get(0).length() < 300, loaded.problems().toString());
        } finally {
            new ProcessBuilder("rm", "-rf", root.toString()).start().waitFor();
        }
    }

    /**
     * Issue 21, high 4: an unreadable subdirectory (lost+found for a non-root user) ended the load.
     * Root reads every directory, so as root the load runs in a child JVM as user nobody.
     */
    @Test
    void anUnreadableSubdirectoryIsAProblemNotAnEnd() throws Exception {
        Path root = Files.createTempDirectory("ragsearch-perm");
        try {
            Files.writeString(root.resolve("a.md"), "##### 제1조 (목적)\n목적.\n");
            Path locked = Files.createDirectories(root.resolve("lost+found"));
            Files.writeString(locked.resolve("hidden.md"), "##### 제1조 (목적)\n목적.\n");
            Files.createDirectories(root.resolve("sub"));
            Files.writeString(root.resolve("sub/b.md"), "##### 제1조 (목적)\n목적.\n");
            Files.setPosixFilePermissions(root, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("---------"));
            List<String> docs;
            List<String> problems;
            if (!System.getProperty("user.name").equals("root")) {
                CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", root);
                docs = loaded.corpus().documents().stream().map(Document::id).toList();
                problems = loaded.problems();
            } else {
                List<String> lines = asNobody(root);
                docs = lines.stream().filter(l -> l.startsWith("doc ")).map(l -> l.substring(4)).toList();
                problems = lines.stream().filter(l -> l.startsWith("problem ")).map(l -> l.substring(8)).toList();
            }
            assertEquals(List.of("a", "sub/b"), docs, problems.toString());
            assertEquals(List.of("lost+found: cannot be read (permission denied), left out"), problems);
        } finally {
            new ProcessBuilder("rm", "-rf", root.toString()).start().waitFor();
        }
    }

    /** The loader's classes copied where user nobody can read them, and run there as nobody. */
    private static List<String> asNobody(Path corpus) throws Exception {
        Path classes = Files.createTempDirectory("ragsearch-classes");
        try {
            for (String from : List.of("target/classes/io/ragsearch/corpus", "target/test-classes/io/ragsearch/corpus")) {
                Path to = Files.createDirectories(classes.resolve("io/ragsearch/corpus"));
                try (var files = Files.list(Path.of(from))) {
                    for (Path f : files.toList()) {
                        Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            // FrontMatter reads YAML: the Jackson jars go along.
            StringBuilder cp = new StringBuilder(classes.toString());
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                String name = Path.of(entry).getFileName().toString();
                if (name.endsWith(".jar") && (name.contains("jackson") || name.contains("snakeyaml"))) {
                    Path copy = classes.resolve(name);
                    Files.copy(Path.of(entry), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    cp.append(java.io.File.pathSeparator).append(copy);
                }
            }
            new ProcessBuilder("chmod", "-R", "a+rX", classes.toString()).start().waitFor();
            String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", javaBin, "-cp", cp.toString(),
                    CorpusLoadMain.class.getName(), corpus.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), out);
            return out.lines().toList();
        } finally {
            new ProcessBuilder("rm", "-rf", classes.toString()).start().waitFor();
        }
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

    /** Issue 21 low: files sharing an id were served under one id without a word naming the other. */
    @Test
    void filesSharingAnIdAreAProblemNamingBothAndTheFirstInPathOrderIsServed() throws IOException {
        Files.writeString(dir.resolve("dup.txt"), "# Second\n## A\nFrom the text file.\n");
        Files.writeString(dir.resolve("dup.md"), "# First\n## A\nFrom the Markdown file.\n");
        Files.writeString(dir.resolve("dup.markdown"), "# Third\n## A\nFrom the other Markdown file.\n");
        for (int run = 0; run < 3; run++) {
            CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", dir);
            assertEquals(List.of("dup.md: the same document id 'dup' as dup.markdown, left out; dup.markdown is served (rename one of them)",
                    "dup.txt: the same document id 'dup' as dup.markdown, left out; dup.markdown is served (rename one of them)"),
                    loaded.problems());
            assertEquals("Third", loaded.corpus().document("dup").orElseThrow().title(), "the same file every time");
        }
    }

    /**
     * Issue 21 low: a hard link out of the corpus was served. A hard link is the file under a second
     * name, so the loader counts the names it finds under the corpus directory: more links than that
     * means a name elsewhere, and the file is left out; links that all lie inside are served.
     */
    @Test
    void aHardLinkWithANameOutsideTheCorpusIsLeftOutAndOneWhollyInsideIsServed(@TempDir Path outside) throws IOException {
        Path secret = Files.writeString(outside.resolve("secret.md"), "# Secret\n## Key\nthe outside secret\n");
        Files.createLink(dir.resolve("linked.md"), secret);
        Files.createDirectories(dir.resolve("sub"));
        Path inside = Files.writeString(dir.resolve("sub/inside.md"), "# Inside\n## A\nShared inside.\n");
        Files.createLink(dir.resolve("copy.md"), inside);
        Files.createLink(dir.resolve("sub/notes.dat"), inside); // a third name, inside but not included: still inside
        Files.writeString(dir.resolve("plain.md"), "# Plain\n## A\nPlain.\n");

        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", dir);

        assertEquals(List.of("copy", "plain", "sub/inside"), loaded.corpus().documents().stream().map(Document::id).toList());
        assertEquals(List.of("linked: a hard link with 1 name(s) outside the corpus directory (2 links, 1 inside), left out"),
                loaded.problems());
        assertTrue(loaded.corpus().documents().stream().flatMap(d -> d.articles().stream()).noneMatch(a -> a.body().contains("secret")));
    }

    @Test
    void theHardLinkRuleCountsNamesInsideAgainstLinks() {
        assertTrue(CorpusLoader.hardLinkProblem(1, 1).isEmpty());
        assertTrue(CorpusLoader.hardLinkProblem(3, 3).isEmpty());
        assertTrue(CorpusLoader.hardLinkProblem(3, 2).isPresent());
        assertTrue(CorpusLoader.hardLinkProblem(2, 0).isPresent(), "reached through a symbolic link only");
    }

    /** docs/security.md: FIFOs, device links, loops and dangling links are load problems, never opened. */
    @Test
    void specialEntriesAreEachALoadProblem() throws Exception {
        Files.writeString(dir.resolve("good.md"), "# Good\n## A\nGood.\n");
        Files.createSymbolicLink(dir.resolve("zero.md"), Path.of("/dev/zero"));
        Files.createSymbolicLink(dir.resolve("loop.md"), Path.of("loop.md"));
        Files.createSymbolicLink(dir.resolve("ping.md"), Path.of("pong.md"));
        Files.createSymbolicLink(dir.resolve("pong.md"), Path.of("ping.md"));
        Files.createSymbolicLink(dir.resolve("dangling.md"), Path.of("nowhere.md"));
        assertEquals(0, new ProcessBuilder("mkfifo", dir.resolve("pipe.md").toString()).start().waitFor());

        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", dir);

        assertEquals(List.of("good"), loaded.corpus().documents().stream().map(Document::id).toList());
        String why = ": not a regular file (a pipe, a device, or a link that leads nowhere), left out";
        assertEquals(java.util.Set.of("zero.md" + why, "loop.md" + why, "ping.md" + why, "pong.md" + why, "dangling.md" + why,
                "pipe.md" + why), java.util.Set.copyOf(loaded.problems()));
    }
}
