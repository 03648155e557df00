package io.ragsearch.embed;

import io.ragsearch.contract.BuiltinModels;
import io.ragsearch.contract.Environment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the built-in models too large for the jar are kept: multilingual-e5-small is fetched and
 * converted at build time (scripts/model/fetch-e5.sh) into the user's cache directory, and the
 * server image carries it at {@value #IMAGE_ROOT}. Looked up in this order: RAGSEARCH_BUILTIN_MODELS,
 * the user's cache (XDG_CACHE_HOME or ~/.cache, then ragsearch/models), the image's folder.
 */
public final class BuiltinModelHome {

    public static final String IMAGE_ROOT = "/opt/ragsearch/models";

    private final List<Path> roots;

    private BuiltinModelHome(List<Path> roots) {
        this.roots = List.copyOf(roots);
    }

    public static BuiltinModelHome from(Map<String, String> env) {
        List<Path> roots = new ArrayList<>();
        String configured = env.get(Environment.BUILTIN_MODELS);
        if (configured != null && !configured.isBlank()) {
            roots.add(Path.of(configured.strip()));
        }
        String xdg = env.get("XDG_CACHE_HOME");
        String home = env.get("HOME");
        if (xdg != null && !xdg.isBlank()) {
            roots.add(Path.of(xdg, "ragsearch", "models"));
        } else if (home != null && !home.isBlank()) {
            roots.add(Path.of(home, ".cache", "ragsearch", "models"));
        }
        roots.add(Path.of(IMAGE_ROOT));
        return new BuiltinModelHome(roots);
    }

    /** The folder holding the named model's model.onnx and tokenizer.json, if any root has it. */
    public Optional<Path> locate(String name) {
        for (Path root : roots) {
            Path dir = root.resolve(name);
            if (Files.isRegularFile(dir.resolve("model.onnx")) && Files.isRegularFile(dir.resolve("tokenizer.json"))) {
                return Optional.of(dir);
            }
        }
        return Optional.empty();
    }

    /** The places looked in, for a message that says where the model was expected. */
    public List<Path> roots() {
        return roots;
    }

    /** The multilingual model, where fetched. */
    public Optional<Path> multilingual() {
        return locate(BuiltinModels.EMBEDDING_E5);
    }
}
