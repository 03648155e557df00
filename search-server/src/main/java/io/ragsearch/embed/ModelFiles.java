package io.ragsearch.embed;

import io.ragsearch.corpus.CorpusLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where an ONNX model and its tokenizer.json come from: built-in models from jars on the class
 * path (never from the network), others from a local directory holding {@code model.onnx} and
 * {@code tokenizer.json}. The two are read separately: deciding whether a corpus suits the
 * model needs only the tokenizer, not the 90 MB model.
 */
public final class ModelFiles {

    public static final String BUILTIN_MINILM = "all-minilm-l6-v2";

    private final String name;
    private final Reader model;
    private final Reader tokenizer;

    private ModelFiles(String name, Reader model, Reader tokenizer) {
        this.name = name;
        this.model = model;
        this.tokenizer = tokenizer;
    }

    public static ModelFiles builtin(String name) throws IOException {
        if (!BUILTIN_MINILM.equals(name)) {
            throw new IOException("unknown built-in model '" + name + "'; built in: " + BUILTIN_MINILM);
        }
        return new ModelFiles(name, () -> classpathResource("/all-minilm-l6-v2.onnx"),
                () -> classpathResource("/all-minilm-l6-v2-tokenizer.json"));
    }

    public static ModelFiles fromDirectory(Path dir) throws IOException {
        Path model = dir.resolve("model.onnx");
        Path tokenizer = dir.resolve("tokenizer.json");
        for (Path required : new Path[] {model, tokenizer}) {
            if (!Files.isRegularFile(required)) {
                throw new IOException("model directory " + dir + " has no " + required.getFileName());
            }
        }
        return new ModelFiles(dir.getFileName().toString(), () -> Files.readAllBytes(model), () -> Files.readAllBytes(tokenizer));
    }

    public String name() {
        return name;
    }

    public byte[] readModel() throws IOException {
        return model.read();
    }

    public byte[] readTokenizer() throws IOException {
        return tokenizer.read();
    }

    public static String digestOf(byte[] model) {
        return "sha256:" + CorpusLoader.sha256(model);
    }

    private static byte[] classpathResource(String path) throws IOException {
        try (InputStream in = ModelFiles.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("built-in model file " + path + " is missing from the class path");
            }
            return in.readAllBytes();
        }
    }

    @FunctionalInterface
    private interface Reader {
        byte[] read() throws IOException;
    }
}
