package io.ragsearch.sim.playground;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A directory of documents as a ConfigMap's data, as {@code kubectl create configmap
 * --from-file=DIR/} makes it: each regular file a key by its name, in name order.
 */
public final class DocsDirectory {
    private DocsDirectory() {
    }

    public static Map<String, String> data(Path dir) throws IOException {
        Map<String, String> data = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                data.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        return data;
    }
}
