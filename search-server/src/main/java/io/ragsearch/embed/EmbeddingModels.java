package io.ragsearch.embed;

import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Resolves the configured embedding model to files: built-in by name, or a directory (relative to RAGSEARCH_MODEL_DIR). */
public final class EmbeddingModels {

    private EmbeddingModels() {
    }

    public static ModelFiles resolve(ServerConfig.ModelRef ref, Map<String, String> env) throws IOException {
        if (ref.builtin() != null) {
            return ModelFiles.builtin(ref.builtin());
        }
        Path path = Path.of(ref.path());
        String modelDir = env.get("RAGSEARCH_MODEL_DIR");
        if (!path.isAbsolute() && modelDir != null && !modelDir.isBlank()) {
            path = Path.of(modelDir).resolve(path);
        }
        if (path.toString().isBlank()) {
            throw new ConfigException("models.embedding.path is empty");
        }
        return ModelFiles.fromDirectory(path);
    }
}
