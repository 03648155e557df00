package io.ragsearch.embed;

import java.nio.file.Path;

/**
 * The embedding model to serve and how it makes vectors: a built-in by name (from the jar, or for
 * one kept outside it, from the folder it was found in) or a configured directory.
 */
public record EmbeddingModel(String builtin, Path directory, EmbeddingSettings settings) {

    public static final EmbeddingModel MINILM = new EmbeddingModel(ModelFiles.BUILTIN_MINILM, null, EmbeddingSettings.DEFAULTS);

    public EmbeddingModel {
        if ((builtin == null && directory == null) || settings == null) {
            throw new IllegalArgumentException("an embedding model is a built-in name or a directory, with settings");
        }
    }

    /** The built-in multilingual model found in {@code directory}, with its own way of making vectors. */
    public static EmbeddingModel multilingual(Path directory, EmbeddingSettings settings) {
        return new EmbeddingModel(ModelFiles.BUILTIN_E5, directory, settings);
    }

    /** The model's files: a built-in's (checked against its pinned digest), or the directory's. */
    public ModelFiles files() throws java.io.IOException {
        if (builtin == null) {
            return ModelFiles.fromDirectory(directory);
        }
        return directory == null ? ModelFiles.builtin(builtin) : ModelFiles.builtinFromDirectory(builtin, directory);
    }

    /** The name for /info before the model is loaded. */
    public String describe() {
        return builtin != null ? builtin : directory.toString();
    }
}
