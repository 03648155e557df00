package io.ragsearch.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every class of ours that a script, a pom, a chart or a document names by its full name exists:
 * the compiler sees no such string, and a class that moves leaves it behind (a package move once
 * left the node agent's old name in scripts/test/kube-e2e.sh, and only the full suite found it).
 */
class ClassNamesInTextTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern OUR_CLASS = Pattern.compile("\\bio\\.ragsearch\\.[a-z][a-z0-9.]*\\.[A-Z][A-Za-z0-9]*");
    private static final Set<String> SKIPPED = Set.of(".git", "target", "node_modules", "corpus", "corpora");

    @Test
    void everyClassNamedInTextExists() throws IOException {
        Set<String> named = new TreeSet<>();
        for (Path file : textFiles()) {
            Matcher m = OUR_CLASS.matcher(Files.readString(file));
            while (m.find()) {
                named.add(m.group());
            }
        }
        assertTrue(named.contains("io.ragsearch.sim.node.NodeAgentCommand"), "the scan sees the scripts: " + named);
        List<String> missing = named.stream().filter(name -> !exists(name)).toList();
        assertEquals(List.of(), missing, "named in scripts, poms, charts or docs, but no such class");
    }

    private static List<Path> textFiles() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> Stream.of(ROOT.relativize(f).toString().split("/")).noneMatch(SKIPPED::contains))
                    .filter(f -> {
                        String n = f.getFileName().toString();
                        return n.endsWith(".sh") || n.endsWith(".md") || n.equals("pom.xml") || n.endsWith(".yaml")
                                || n.endsWith(".properties") || n.endsWith(".py");
                    })
                    .toList();
        }
    }

    /** A source file for the class (or its outer class) in some module's main or test tree. */
    private static boolean exists(String name) {
        String path = name.replace('.', '/') + ".java";
        try (Stream<Path> modules = Files.list(ROOT)) {
            return modules.filter(Files::isDirectory).anyMatch(module ->
                    Files.isRegularFile(module.resolve("src/main/java").resolve(path))
                            || Files.isRegularFile(module.resolve("src/test/java").resolve(path)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
