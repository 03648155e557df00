package io.ragsearch.embed;

import java.nio.file.Path;

/** The embedding model to serve: a built-in by name or a directory, exactly one, and how it makes vectors. */
public record EmbeddingModel(String builtin, Path directory, EmbeddingSettings settings) {

    public static final EmbeddingModel DEFAULT = new EmbeddingModel(ModelFiles.BUILTIN_MINILM, null, EmbeddingSettings.DEFAULTS);

    public EmbeddingModel {
        if ((builtin == null) == (directory == null) || settings == null) {
            throw new IllegalArgumentException("an embedding model is a built-in name or a directory, exactly one, with settings");
        }
    }

    /** The model's files: the built-in's from the classpath, or the directory's. */
    public ModelFiles files() throws java.io.IOException {
        return builtin != null ? ModelFiles.builtin(builtin) : ModelFiles.fromDirectory(directory);
    }

    /** The name for /info before the model is loaded. */
    public String describe() {
        return builtin != null ? builtin : directory.toString();
    }
}
