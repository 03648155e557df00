package io.ragsearch.server;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The sample corpus (examples/corpus) packaged in the server jar: the embedded default when no
 * project is configured. Copied out of the jar into a temporary directory.
 */
public final class SampleCorpus {

    private static final String ROOT = "/sample-corpus";

    /** The sample projects: name, sub-directory, description. */
    public record SampleProject(String name, String directory, String description) {
    }

    public static final List<SampleProject> PROJECTS = List.of(
            new SampleProject("handbook-ko", "ko", "한빛로보틱스 사내 규정 (취업규칙, 출장여비, 정보보안) — sample corpus"),
            new SampleProject("handbook-en", "en", "Hanbit Robotics employee handbook and policies (English) — sample corpus"));

    private SampleCorpus() {
    }

    /** A directory holding the sample corpus: the packaged copy, extracted when it sits in a jar. */
    public static Path locate() throws IOException {
        URL url = SampleCorpus.class.getResource(ROOT);
        if (url == null) {
            throw new IOException("the sample corpus is not packaged in this build");
        }
        try {
            URI uri = url.toURI();
            if (uri.getScheme().equals("file")) {
                return Path.of(uri);
            }
            Path target = Files.createTempDirectory("ragsearch-sample-");
            try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of());
                 Stream<Path> files = Files.walk(jar.getPath(ROOT))) {
                for (Path source : files.toList()) {
                    Path dest = resolve(target, jar.getPath(ROOT).relativize(source).toString());
                    if (Files.isDirectory(source)) {
                        Files.createDirectories(dest);
                    } else {
                        Files.copy(source, dest);
                    }
                }
            }
            return target;
        } catch (URISyntaxException e) {
            throw new IOException("cannot locate the sample corpus: " + e.getMessage(), e);
        }
    }

    /** Korean file names need a UTF-8 file-name encoding, which Java 17 takes from the locale. */
    private static Path resolve(Path dir, String name) throws IOException {
        try {
            return dir.resolve(name);
        } catch (java.nio.file.InvalidPathException e) {
            throw new IOException("the file name " + name + " cannot be written in this JVM's file-name encoding ("
                    + System.getProperty("sun.jnu.encoding") + "); run with a UTF-8 locale, e.g. LANG=C.UTF-8", e);
        }
    }
}
