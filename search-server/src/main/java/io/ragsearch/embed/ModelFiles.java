package io.ragsearch.embed;

import io.ragsearch.contract.BuiltinModels;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where an ONNX model and its tokenizer.json come from: built-in models from jars on the class
 * path (never from the network), others from a local directory holding {@code model.onnx} and
 * {@code tokenizer.json}, and {@code model.onnx_data} when the weights are stored beside the
 * graph (ONNX keeps a model over 2 GB, such as bge-m3 in float32, that way; ONNX Runtime
 * reads the file itself, relative to model.onnx). An export's config.json, when present, is
 * read for its position limit only ({@link #positions()}); other files (tokenizer_config.json,
 * sentencepiece.bpe.model) are not needed. Model and tokenizer are
 * read separately: deciding whether a corpus suits the model needs only the tokenizer.
 */
public final class ModelFiles {

    public static final String BUILTIN_MINILM = BuiltinModels.EMBEDDING_MINILM;
    public static final String BUILTIN_E5 = BuiltinModels.EMBEDDING_E5;
    /** The external-data file name optimum gives the weights of a model over 2 GB. */
    public static final String EXTERNAL_DATA = "model.onnx_data";
    /** The export's model configuration; only its position limit is read ({@link #positions()}). */
    public static final String CONFIG_JSON = "config.json";

    private final String name;
    private final String source;
    private final PathSource model;
    private final Reader tokenizer;
    /** The directory the files were found in; null for a built-in inside the jar. */
    private final Path directory;
    private String digest;
    private String tokenizerDigest;

    private ModelFiles(String name, String source, PathSource model, Reader tokenizer, Path directory) {
        this.name = name;
        this.source = source;
        this.model = model;
        this.tokenizer = tokenizer;
        this.directory = directory;
    }

    public static ModelFiles builtin(String name) throws IOException {
        if (!BUILTIN_MINILM.equals(name)) {
            throw new IOException("unknown built-in model '" + name + "'; built in: " + BUILTIN_MINILM);
        }
        return new ModelFiles(name, "builtin:" + name, () -> extractedBuiltin("/all-minilm-l6-v2.onnx"),
                () -> classpathResource("/all-minilm-l6-v2-tokenizer.json"), null);
    }

    /**
     * A built-in kept outside the jar, from the folder {@link BuiltinModelHome} found: its
     * model.onnx must be the converted file the build pinned ({@link BuiltinModels#E5_SHA256}),
     * so a stale or tampered copy is refused rather than served under the built-in's name.
     */
    public static ModelFiles builtinFromDirectory(String name, Path dir) throws IOException {
        if (!BUILTIN_E5.equals(name)) {
            throw new IOException("built-in model '" + name + "' is not kept outside the jar");
        }
        ModelFiles files = fromDirectory(dir);
        ModelFiles named = new ModelFiles(name, "builtin:" + name, files.model, files.tokenizer, dir);
        String digest = named.digest();
        if (!digest.equals(BuiltinModels.E5_SHA256)) {
            throw new IOException("built-in model " + name + " in " + dir + " has " + digest + ", not the pinned "
                    + BuiltinModels.E5_SHA256 + ": fetch it again with scripts/model/fetch-e5.sh");
        }
        return named;
    }

    public static ModelFiles fromDirectory(Path dir) throws IOException {
        Path model = dir.resolve("model.onnx");
        Path tokenizer = dir.resolve("tokenizer.json");
        for (Path required : new Path[] {model, tokenizer}) {
            if (!Files.isRegularFile(required)) {
                throw new IOException("model directory " + dir + " has no " + required.getFileName());
            }
        }
        return new ModelFiles(dir.getFileName().toString(), dir.toAbsolutePath().normalize().toString(),
                () -> model, () -> Files.readAllBytes(tokenizer), dir);
    }

    /**
     * The position limit the export's config.json states ({@link ModelPositions}); unknown without
     * one. A config.json that is not JSON is refused: the file is there to be read.
     */
    public ModelPositions positions() throws IOException {
        Path config = directory == null ? null : directory.resolve(CONFIG_JSON);
        if (config == null || !Files.isRegularFile(config)) {
            return ModelPositions.UNKNOWN;
        }
        try {
            return ModelPositions.fromConfigJson(Files.readAllBytes(config));
        } catch (IllegalArgumentException e) {
            throw new IOException("model directory " + directory + ": " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    /** Where the model comes from ("builtin:NAME" or a directory), part of the registry key. */
    public String source() {
        return source;
    }

    /**
     * The model as a file ONNX Runtime can read itself: a 90 MB model never passes through the
     * Java heap (a byte[] copy would grow the heap for good at startup).
     */
    public Path modelPath() throws IOException {
        return model.path();
    }

    /**
     * sha256 of the model: of model.onnx alone, or of model.onnx followed by its external data,
     * so that new weights under an unchanged graph are a different model.
     */
    public synchronized String digest() throws IOException {
        // Memoised: hashing a 200 MB model costs about a second, and loading asks more than once.
        if (digest == null) {
            Path file = modelPath();
            Path data = file.resolveSibling(EXTERNAL_DATA);
            digest = !source.startsWith("builtin:") && Files.isRegularFile(data) ? digestOf(file, data) : digestOf(file);
        }
        return digest;
    }

    /**
     * tokenizer.json's bytes. The first read fixes {@link #tokenizerDigest()}; a later read of
     * other bytes (the file replaced while the model loads) is refused, so the digest always
     * names the tokenizer every embedder of these files was built from.
     */
    public byte[] readTokenizer() throws IOException {
        byte[] bytes = tokenizer.read();
        String read = "sha256:" + HexFormat.of().formatHex(sha256().digest(bytes));
        synchronized (this) {
            if (tokenizerDigest == null) {
                tokenizerDigest = read;
            } else if (!tokenizerDigest.equals(read)) {
                throw new IOException("tokenizer.json of model " + name + " changed while it was loading (" + tokenizerDigest
                        + ", now " + read + ")");
            }
        }
        return bytes;
    }

    /** sha256 of tokenizer.json as it was read (read now if it has not been): part of the embedder's identity. */
    public String tokenizerDigest() throws IOException {
        synchronized (this) {
            if (tokenizerDigest != null) {
                return tokenizerDigest;
            }
        }
        readTokenizer();
        synchronized (this) {
            return tokenizerDigest;
        }
    }

    /** sha256 of files one after the other, streamed (a 2 GB weights file never sits in memory). */
    public static String digestOf(Path... files) throws IOException {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[1 << 16];
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    digest.update(buffer, 0, n);
                }
            }
        }
        return "sha256:" + HexFormat.of().formatHex(digest.digest());
    }

    /** Built-in models sit inside a jar; copied once per process to a temporary file. */
    private static final Map<String, Path> EXTRACTED = new ConcurrentHashMap<>();

    private static Path extractedBuiltin(String resource) throws IOException {
        try {
            return EXTRACTED.computeIfAbsent(resource, r -> {
                try (InputStream in = ModelFiles.class.getResourceAsStream(r)) {
                    if (in == null) {
                        throw new IOException("built-in model file " + r + " is missing from the class path");
                    }
                    Path tmp = Files.createTempFile("ragsearch-model-", ".onnx");
                    tmp.toFile().deleteOnExit();
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                    return tmp;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
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
    private interface PathSource {
        Path path() throws IOException;
    }

    @FunctionalInterface
    private interface Reader {
        byte[] read() throws IOException;
    }
}
