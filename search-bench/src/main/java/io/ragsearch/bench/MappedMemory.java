package io.ragsearch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Memory outside the Java heap that an index holds: its files on disk and the part of them mapped and resident. */
final class MappedMemory {

    /** The first line of a mapping's block in smaps: "start-end perms offset dev inode path". */
    private static final Pattern MAPPING = Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

    private MappedMemory() {
    }

    /** Bytes of the files under {@code dir} whose names end with {@code suffix} ("" for all). */
    static long diskBytes(Path dir, String suffix) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(suffix)).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        }
    }

    /**
     * Resident bytes of this process's mappings of files under {@code dir} (/proc/self/smaps):
     * what the page cache holds of a memory-mapped index for this process, beside the heap.
     */
    static long residentBytes(Path dir) {
        String prefix = dir.toAbsolutePath().normalize().toString();
        long total = 0;
        boolean inside = false;
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
            for (String line : lines) {
                if (MAPPING.matcher(line).lookingAt()) {
                    int slash = line.indexOf('/');
                    inside = slash >= 0 && line.substring(slash).startsWith(prefix);
                } else if (inside && line.startsWith("Rss:")) {
                    total += Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return total;
    }

    /** Java heap in use after a collection. */
    static long heapUsed() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }
}
