package io.ragsearch.embed;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loads each ONNX model once per (source, sha256 digest, session settings). Concurrent first
 * callers for the same key wait for the single load in progress (one future per key); later
 * callers share the session. One session serves all threads: ONNX Runtime allows concurrent
 * {@code run} calls on a session.
 */
public final class ModelRegistry implements AutoCloseable {

    private final Map<Key, CompletableFuture<LoadedModel>> models = new ConcurrentHashMap<>();
    private final AtomicInteger loads = new AtomicInteger();
    private final RunGate gate = new RunGate("the models are closed");

    record Key(String source, String digest, SessionSettings settings) {
    }

    /** A session with the digest of the bytes it was made from and the settings it runs with. */
    public record LoadedModel(String name, String digest, OrtSession session, SessionSettings settings, RunGate gate) {

        /** Runs the session with this model's run options (arena shrinkage in SHRINK mode). */
        public OrtSession.Result run(Map<String, ? extends OnnxTensor> inputs) throws OrtException {
            return NativeRuns.run(() -> gate.run(() -> {
                if (settings.arena() != SessionSettings.Arena.SHRINK) {
                    return session.run(inputs);
                }
                try (OrtSession.RunOptions options = new OrtSession.RunOptions()) {
                    options.addRunConfigEntry("memory.enable_memory_arena_shrinkage", "cpu:0");
                    return session.run(inputs, options);
                }
            }));
        }
    }

    public LoadedModel load(ModelFiles files, SessionSettings settings) throws IOException {
        Path file = files.modelPath();
        String digest = files.digest();
        Key key = new Key(files.source(), digest, settings);
        CompletableFuture<LoadedModel> mine = new CompletableFuture<>();
        CompletableFuture<LoadedModel> existing = models.putIfAbsent(key, mine);
        if (existing == null) {
            try {
                loads.incrementAndGet();
                mine.complete(new LoadedModel(files.name(), digest, createSession(file, settings), settings, gate));
            } catch (OrtException | RuntimeException e) {
                models.remove(key, mine); // a failed load may be retried
                mine.completeExceptionally(e);
            }
            existing = mine;
        }
        try {
            return existing.join();
        } catch (CompletionException e) {
            throw new IOException("cannot load model " + files.name() + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** How many sessions were created: a test can prove concurrent callers shared one load. */
    public int loadCount() {
        return loads.get();
    }

    private static OrtSession createSession(Path model, SessionSettings settings) throws OrtException {
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setIntraOpNumThreads(settings.intraOpThreads());
        options.setInterOpNumThreads(1);
        options.setCPUArenaAllocator(settings.arena() != SessionSettings.Arena.OFF);
        return OrtEnvironment.getEnvironment().createSession(model.toString(), options);
    }

    @Override
    public void close() {
        // A session closed under a run in flight crashes the process: wait for the runs first.
        gate.shut(NativeRuns.STOP_WAIT);
        for (CompletableFuture<LoadedModel> f : models.values()) {
            f.thenAccept(m -> {
                try {
                    m.session().close();
                } catch (OrtException e) {
                    // shutting down
                }
            });
        }
        models.clear();
    }
}
