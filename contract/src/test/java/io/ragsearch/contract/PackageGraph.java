package io.ragsearch.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which packages of one tree the compiled classes of that tree refer to, read from their constant
 * pools ({@link ClassConstants}). Every module's package-rule test checks its table against it;
 * a class directly under the root belongs to the package "" (the root itself).
 *
 * @param root  the tree, in internal form with a trailing slash ({@code io/ragsearch/sim/})
 * @param uses  per package of the tree, the other packages of the tree its classes name
 * @param names per package of the tree, every class name (internal form) its classes name
 */
public record PackageGraph(String root, Map<String, Set<String>> uses, Map<String, Set<String>> names) {
    // A descriptor names a class as Lpkg/Name; a class entry as pkg/Name: the optional L covers both.
    // A trailing slash is kept: "pkg/sub/" (a resource or package path) names the package sub.
    private static final Pattern TYPE = Pattern.compile("L?([a-zA-Z_$][\\w$]*(?:/[\\w$]+)+/?)");

    /** Reads every class file under {@code classes/root}; fails when there is none (nothing compiled). */
    public static PackageGraph read(Path classes, String root) {
        Path dir = classes.resolve(root);
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no compiled classes under " + dir);
        }
        Map<String, Set<String>> uses = new TreeMap<>();
        Map<String, Set<String>> names = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String pkg = topPackage(root, classes.relativize(f).toString().replace('\\', '/'));
                Set<String> used = uses.computeIfAbsent(pkg, p -> new TreeSet<>());
                Set<String> named = names.computeIfAbsent(pkg, p -> new TreeSet<>());
                for (String text : ClassConstants.utf8Entries(Files.readAllBytes(f))) {
                    Matcher m = TYPE.matcher(text);
                    while (m.find()) {
                        String name = m.group(1);
                        named.add(name);
                        String other = referencedPackage(root, name);
                        if (other != null && !other.equals(pkg)) {
                            used.add(other);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PackageGraph(root, uses, names);
    }

    /** Each use a table does not allow, as "from -> to"; a package without a row is one entry too. */
    public List<String> notAllowedBy(Map<String, Set<String>> allowed) {
        List<String> broken = new ArrayList<>();
        uses.forEach((from, to) -> {
            Set<String> mayUse = allowed.get(from);
            if (mayUse == null) {
                broken.add("package '" + from + "' has no rule");
            } else {
                to.stream().filter(p -> !mayUse.contains(p)).forEach(p -> broken.add(from + " -> " + p));
            }
        });
        return broken;
    }

    /** Every class name the package's classes refer to that the predicate rejects, as "from -> name". */
    public List<String> namesRejected(String pkg, Predicate<String> allowed) {
        return names.getOrDefault(pkg, Set.of()).stream().filter(allowed.negate()).map(n -> pkg + " -> " + n).toList();
    }

    /** A package that reaches itself through the uses, if any. */
    public java.util.Optional<String> cycle() {
        for (String start : uses.keySet()) {
            Set<String> seen = new TreeSet<>();
            List<String> todo = new ArrayList<>(uses.get(start));
            while (!todo.isEmpty()) {
                String p = todo.remove(todo.size() - 1);
                if (p.equals(start)) {
                    return java.util.Optional.of(start);
                }
                if (seen.add(p)) {
                    todo.addAll(uses.getOrDefault(p, Set.of()));
                }
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * The package of the tree a referenced name lies in; null outside the tree, and for a bare
     * path below the root ("pkg" without a slash and not a class) that names nothing in it.
     */
    private static String referencedPackage(String root, String name) {
        if (!name.startsWith(root) || name.length() == root.length()) {
            return null;
        }
        String rest = name.substring(root.length());
        return rest.indexOf('/') < 0 && !Character.isUpperCase(rest.charAt(0)) ? null : topPackage(root, name);
    }

    private static String topPackage(String root, String internalName) {
        String rest = internalName.substring(root.length());
        int slash = rest.indexOf('/');
        return slash < 0 ? "" : rest.substring(0, slash);
    }
}
