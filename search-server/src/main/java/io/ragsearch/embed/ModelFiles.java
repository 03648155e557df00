package io.ragsearch.embed;

import io.ragsearch.corpus.CorpusLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bytes of an ONNX model and its tokenizer.json, with the model's digest. Built-in models
 * come from jars on the class path (never from the network); others from a local directory
 * holding {@code model.onnx} and {@code tokenizer.json}.
 */
public record ModelFiles(String name, byte[] model, byte[] tokenizer, String digest) {

    public static final String BUILTIN_MINILM = "all-minilm-l6-v2";

    public static ModelFiles builtin(String name) throws IOException {
        if (!BUILTIN_MINILM.equals(name)) {
            throw new IOException("unknown built-in model '" + name + "'; built in: " + BUILTIN_MINILM);
        }
        byte[] model = classpathResource("/all-minilm-l6-v2.onnx");
        byte[] tokenizer = classpathResource("/all-minilm-l6-v2-tokenizer.json");
        return new ModelFiles(name, model, tokenizer, "sha256:" + CorpusLoader.sha256(model));
    }

    public static ModelFiles fromDirectory(Path dir) throws IOException {
        Path model = dir.resolve("model.onnx");
        Path tokenizer = dir.resolve("tokenizer.json");
        for (Path required : new Path[] {model, tokenizer}) {
            if (!Files.isRegularFile(required)) {
                throw new IOException("model directory " + dir + " has no " + required.getFileName());
            }
        }
        byte[] bytes = Files.readAllBytes(model);
        return new ModelFiles(dir.getFileName().toString(), bytes, Files.readAllBytes(tokenizer),
                "sha256:" + CorpusLoader.sha256(bytes));
    }

    private static byte[] classpathResource(String path) throws IOException {
        try (InputStream in = ModelFiles.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("built-in model file " + path + " is missing from the class path");
            }
            return in.readAllBytes();
        }
    }
}
