package io.ragsearch.embed;

import io.ragsearch.contract.BuiltinModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where the built-in models too large for the jar are kept: multilingual-e5-small is fetched and
 * converted at build time (scripts/model/fetch-e5.sh) into the user's cache directory, and the
 * server image carries it in its own folder. The roots, in the order they are looked in, come
 * from the environment (config.ServerEnvironment: RAGSEARCH_BUILTIN_MODELS, the user's cache,
 * the image's folder).
 */
public final class BuiltinModelHome {

    private final List<Path> roots;

    public BuiltinModelHome(List<Path> roots) {
        this.roots = List.copyOf(roots);
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
