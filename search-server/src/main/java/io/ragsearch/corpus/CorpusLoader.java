package io.ragsearch.corpus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Loads a project from a directory of Markdown/text files: one file is one document, its id the
 * path below the directory without extension. A file that cannot be read is reported and left
 * out; the rest of the project still loads. So is a file that resolves (through a symbolic link)
 * outside the corpus directory — a corpus from a git repository can carry a link to
 * /proc/self/environ — and a file over {@link #MAX_FILE_BYTES}.
 */
public final class CorpusLoader {

    /** Globs over the path below the project directory: Markdown and text files at any depth. */
    public static final List<String> DEFAULT_INCLUDE = List.of("**.md", "**.markdown", "**.txt");

    /**
     * Far above any statute or rulebook (the largest Korean statute is about 1 MB); a file past
     * it is reported and skipped rather than read whole into memory.
     */
    public static final long MAX_FILE_BYTES = 32L << 20;

    private final ArticleSplitter splitter;
    private final List<PathMatcher> include;

    public CorpusLoader(boolean includeAddenda) {
        this(includeAddenda, DEFAULT_INCLUDE);
    }

    public CorpusLoader(boolean includeAddenda, List<String> includeGlobs) {
        this.splitter = new ArticleSplitter(includeAddenda);
        this.include = includeGlobs.stream()
                .map(g -> FileSystems.getDefault().getPathMatcher("glob:" + g))
                .toList();
    }

    public LoadedCorpus load(String project, Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new IOException("corpus directory of project '" + project + "' does not exist: " + directory);
        }
        List<Document> documents = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Path root = directory.toRealPath();
        java.util.Map<String, Path> ids = new java.util.HashMap<>();
        Walk walk = sourceFiles(directory, problems);
        for (Path file : walk.files()) {
            String id = documentId(directory, file);
            Path first = ids.putIfAbsent(id, file);
            if (first != null) {
                // dup.md and dup.txt: one id, two texts. The first (in path order) is the document; serving the
                // other under its id, or failing the whole ingest on the database's key, would both be wrong.
                problems.add(shownPath(directory.relativize(file)) + ": the same document id '" + ArticleLimits.shown(id)
                        + "' as " + shownPath(directory.relativize(first)) + ", left out; " + shownPath(directory.relativize(first))
                        + " is served (rename one of them)");
                continue;
            }
            java.util.Optional<String> badId = ArticleLimits.idProblem(id);
            if (badId.isPresent()) {
                problems.add(shownPath(directory.relativize(file)) + ": " + badId.get());
                continue;
            }
            try {
                Path real = file.toRealPath();
                if (!real.startsWith(root)) {
                    problems.add(id + ": a link that leads outside the corpus directory, left out");
                    continue;
                }
                java.util.Optional<String> linked = hardLinkProblem(real, walk.namesInside());
                if (linked.isPresent()) {
                    problems.add(id + ": " + linked.get());
                    continue;
                }
                byte[] bytes = readCapped(real);
                if (bytes == null) {
                    problems.add(id + ": larger than " + (MAX_FILE_BYTES >> 20) + " MiB, left out");
                    continue;
                }
                int nul = indexOfNul(bytes);
                if (nul >= 0) {
                    // Not text; PostgreSQL's text type cannot even hold it, so one such file failed a whole ingest.
                    problems.add(id + ": a NUL byte at byte " + nul + ", not text, left out");
                    continue;
                }
                Document doc = parse(id, bytes, problems);
                if (doc.title().indexOf('\u0000') >= 0) {
                    // The bytes hold no NUL, but a YAML escape in the front matter ("a\u0000b") makes one.
                    // PostgreSQL's text cannot hold it: written, it failed the whole ingest naming no file.
                    // Left out rather than stripped, as a NUL byte is: the title would not be what the
                    // author wrote, and the fix (the front matter) is theirs to make.
                    problems.add(id + ": a NUL character in its front matter's title (from an escape), not text, left out");
                    continue;
                }
                if (doc.articles().isEmpty()) {
                    problems.add(id + ": no text, left out");
                } else {
                    documents.add(doc);
                }
            } catch (CharacterCodingException e) {
                problems.add(id + ": not UTF-8 text, left out");
            } catch (IOException e) {
                // The exception's message carries the absolute path; load problems are shown by /info.
                problems.add(id + ": cannot be read (" + kind(e) + "), left out");
            }
        }
        return new LoadedCorpus(new Corpus(project, documents, versionOf(documents)), problems);
    }

    private static int indexOfNul(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The file's bytes, or null when it holds more than the cap (read bounded: a reported size can lie). */
    private static byte[] readCapped(Path file) throws IOException {
        if (Files.size(file) > MAX_FILE_BYTES) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
            return bytes.length > MAX_FILE_BYTES ? null : bytes;
        }
    }

    /** Parses one document; {@code problems} receives what was wrong but recoverable. */
    public Document parse(String id, byte[] bytes, List<String> problems) throws CharacterCodingException {
        String text = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString()
                .replace("\r\n", "\n");
        FrontMatter front = FrontMatter.parse(text);
        front.problem().ifPresent(p -> problems.add(id + ": " + p));
        String title = front.title()
                .or(() -> ArticleSplitter.firstTitleHeading(front.body()))
                .orElse(id);
        List<Article> articles = new ArrayList<>();
        for (Article a : splitter.split(front.body(), title)) {
            java.util.Optional<String> tooLong = a.deleted() ? java.util.Optional.empty() : ArticleLimits.labelProblem(a.label());
            if (tooLong.isPresent()) {
                problems.add(id + ": " + tooLong.get());
            } else {
                articles.add(a);
            }
        }
        return new Document(id, title, sha256(bytes), articles);
    }

    /**
     * The files to read, sorted. A directory that cannot be opened (no permission, such as
     * {@code lost+found} for a non-root user; a path past the system's length limit) and an
     * included name that is no regular file (a FIFO, a device, a dangling or looping link) are
     * load problems; the walk goes on with the rest. Dot-named entries and the corpus's own
     * paperwork ({@link #aboutTheCorpus}) are left out without a word.
     */
    private Walk sourceFiles(Path directory, List<String> problems) throws IOException {
        List<Path> files = new ArrayList<>();
        java.util.Map<Object, Integer> namesInside = new java.util.HashMap<>();
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(directory) && hidden(directory.relativize(dir)) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() && attrs.fileKey() != null) {
                    namesInside.merge(attrs.fileKey(), 1, Integer::sum); // every name, read or not: see hardLinkProblem
                }
                Path relative = directory.relativize(file);
                if (hidden(relative) || aboutTheCorpus(relative) || include.stream().noneMatch(m -> m.matches(relative))) {
                    return FileVisitResult.CONTINUE;
                }
                if (Files.isRegularFile(file)) {
                    files.add(file);
                } else if (!Files.isDirectory(file)) {
                    problems.add(shownPath(relative) + ": not a regular file (a pipe, a device, or a link that leads nowhere), left out");
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                if (file.equals(directory)) {
                    return FileVisitResult.CONTINUE;
                }
                Path relative = directory.relativize(file);
                if (!hidden(relative)) {
                    // The exception's message carries the absolute path; say only what kind of failure it was.
                    problems.add(shownPath(relative) + ": cannot be read (" + kind(e) + "), left out");
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                if (e != null && !dir.equals(directory)) {
                    problems.add(shownPath(directory.relativize(dir)) + ": listing stopped part-way (" + kind(e) + ")");
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return new Walk(files, namesInside);
    }

    /** The files to read, and how many names under the directory each inode (device and number) has. */
    private record Walk(List<Path> files, java.util.Map<Object, Integer> namesInside) {
    }

    /**
     * A hard link is the file itself under another name: no path check can tell {@code hard.md}
     * from a copy when its other name is {@code /etc/shadow}'s neighbour outside the corpus. A
     * file with more links than names found under the corpus directory therefore has a name
     * elsewhere and is left out; links that all lie inside (a tree copied with {@code cp -al})
     * are served. Where the file system reports no link count the check does not apply.
     */
    private static java.util.Optional<String> hardLinkProblem(Path real, java.util.Map<Object, Integer> namesInside) throws IOException {
        Object links;
        BasicFileAttributes attrs = Files.readAttributes(real, BasicFileAttributes.class);
        try {
            links = Files.getAttribute(real, "unix:nlink");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
        return hardLinkProblem(((Number) links).longValue(), namesInside.getOrDefault(attrs.fileKey(), 0));
    }

    /** The decision: a link count above the names found inside means a name outside. */
    static java.util.Optional<String> hardLinkProblem(long links, int namesInside) {
        if (links <= 1 || links <= namesInside) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("a hard link with " + (links - namesInside) + " name(s) outside the corpus directory ("
                + links + " links, " + namesInside + " inside), left out");
    }

    private static String kind(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemLoopException) {
            return "a link loop";
        }
        String reason = e instanceof java.nio.file.FileSystemException f ? f.getReason() : null;
        return reason != null && reason.toLowerCase(java.util.Locale.ROOT).contains("name too long") ? "path too long" : "I/O error";
    }

    /** A relative path as a problem shows it: at most 200 characters, the end kept (it names the file). */
    private static String shownPath(Path relative) {
        String s = relative.toString().replace('\\', '/');
        return s.length() > 200 ? "…" + s.substring(s.length() - 200) : s;
    }

    /**
     * A corpus folder's own paperwork is not a document: {@code SOURCE*}, {@code README*} and
     * {@code LICENSE*} / {@code LICENCE*} files (any case, any extension, at any depth) say where
     * the documents come from and under what terms; served, they would be searched and cited as
     * if they were rules. Left out on purpose, whatever the include globs say.
     */
    static boolean aboutTheCorpus(Path relative) {
        return ABOUT_THE_CORPUS.matcher(relative.getFileName().toString()).matches();
    }

    private static final java.util.regex.Pattern ABOUT_THE_CORPUS =
            java.util.regex.Pattern.compile("(?i)(source|readme|licen[cs]e)([._ -].*)?");

    /**
     * Dot-named files and directories are left out: a mounted ConfigMap keeps a second copy of
     * every file under {@code ..data/} and a timestamped {@code ..2026_...} directory.
     */
    private static boolean hidden(Path relative) {
        for (Path part : relative) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static String documentId(Path directory, Path file) {
        String relative = directory.relativize(file).toString().replace('\\', '/');
        int dot = relative.lastIndexOf('.');
        return dot > relative.lastIndexOf('/') ? relative.substring(0, dot) : relative;
    }

    static String versionOf(List<Document> documents) {
        MessageDigest digest = newDigest();
        for (Document d : documents) {
            digest.update(d.id().getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(d.sha256().getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    }

    public static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(newDigest().digest(bytes));
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** A project's corpus and what was wrong with the files it left out or repaired. */
    public record LoadedCorpus(Corpus corpus, List<String> problems) {
    }
}
