package io.ragsearch.server;

import io.ragsearch.embed.ChunkedEmbedding;
import io.ragsearch.embed.EmbeddingProgress;
import io.ragsearch.embed.RunGate;
import io.ragsearch.index.ProjectIndex;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.ProjectLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The article vectors of the directory projects that need them, embedded after the startup
 * probe has passed (in `serve`) or before anything is served (query, eval, stdio): each project
 * is put in the catalog with its vectors when they are all there, replacing its lexical form.
 * Until then readiness says how far it has come, so a first start of any corpus size is never
 * killed by a startup budget; the vector cache keeps each chunk, so a killed process resumes.
 */
final class StartupEmbedding {

    private static final Logger LOG = LoggerFactory.getLogger(StartupEmbedding.class);
    /** How long close waits for the chunk in flight: a chunk is seconds of work, and stopping must not hang. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final ProjectLoader loader;
    private final List<Pending> projects;
    private final ProjectCatalog catalog;
    private final EmbeddingProgress progress = new EmbeddingProgress();
    private volatile Thread worker;
    private volatile String failure;
    private volatile boolean ready;
    private final CountDownLatch settled = new CountDownLatch(1);

    /**
     * A project waiting for its vectors, with the lexical index its lexical-first form serves
     * meanwhile (null when it has none): the complete project is built on that index, not a new one.
     */
    record Pending(ProjectLoader.Prepared prepared, ProjectIndex lexical) {
    }

    StartupEmbedding(ProjectLoader loader, List<Pending> projects, ProjectCatalog catalog) {
        this.loader = loader;
        this.projects = projects;
        this.catalog = catalog;
        for (Pending p : projects) {
            List<String> texts = p.prepared().embeddingTexts();
            progress.expect(texts.size(), ChunkedEmbedding.chars(texts));
        }
    }

    /** Embeds on the calling thread; the catalog holds every project complete when it returns. */
    void runHere() {
        for (Pending p : projects) {
            try {
                catalog.put(loader.complete(p.prepared(), p.lexical(), progress));
            } catch (IOException e) {
                throw new UncheckedIOException("project " + p.prepared().settings().name() + ": " + e.getMessage(), e);
            }
        }
        progress.finish();
    }

    /**
     * Embeds on a thread of its own, then runs {@code after} there (calibration: measured once
     * the embedding no longer moves the memory, and before readiness lets traffic in).
     */
    void start(Runnable after) {
        Thread t = new Thread(() -> {
            try {
                long t0 = System.nanoTime();
                runHere();
                if (!projects.isEmpty()) {
                    LOG.info("article vectors of {} project(s) ready in {} s: {}", projects.size(),
                            (System.nanoTime() - t0) / 1_000_000_000, progress.snapshot().describe());
                }
                after.run();
                ready = true;
            } catch (CancellationException | RunGate.Shut e) {
                // Closed (SIGTERM shuts the run gate first, close interrupts between chunks): a stop, not a failure.
                LOG.info("article embedding stopped: {} (the vector cache keeps what is done)", e.getMessage());
            } catch (RuntimeException | Error e) {
                if (worker != null && worker.isInterrupted()) {
                    LOG.info("article embedding stopped while the server closes");
                    return;
                }
                failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                LOG.error("article embedding failed; the projects stay lexical and the server stays unready: {}", failure, e);
            } finally {
                settled.countDown();
            }
        }, "startup-embedding");
        t.setDaemon(true);
        worker = t;
        t.start();
    }

    /**
     * Waits until the background work has ended (every project complete and calibrated, or a
     * failure, or a stop).
     *
     * @throws IllegalStateException when it failed or was stopped
     */
    void await() throws InterruptedException {
        settled.await();
        if (!ready) {
            throw new IllegalStateException(failure != null ? "article embedding failed: " + failure : "article embedding stopped");
        }
    }

    /** Whether every project has its vectors and what follows them (calibration) is done. */
    boolean done() {
        return ready;
    }

    /** For readiness: empty once done, else how far the embedding has come. */
    Optional<String> notReadyReason() {
        if (failure != null) {
            return Optional.of("article embedding failed: " + failure);
        }
        if (done()) {
            return Optional.empty();
        }
        EmbeddingProgress.Snapshot s = progress.snapshot();
        return Optional.of(s.finished() ? "calibrating" : "embedding article vectors: " + s.describe()
                + (s.project().isEmpty() ? "" : " (project " + s.project() + ")"));
    }

    /** The progress as /readyz, /info and the operator read it; empty when there was nothing to embed. */
    Optional<Object> describe() {
        if (projects.isEmpty()) {
            return Optional.empty();
        }
        EmbeddingProgress.Snapshot s = progress.snapshot();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("articlesEmbedded", s.articlesDone());
        m.put("articlesTotal", s.articlesTotal());
        m.put("secondsLeft", s.secondsLeft());
        m.put("project", s.project());
        m.put("state", failure != null ? "failed" : s.finished() ? "done" : "embedding");
        if (failure != null) {
            m.put("failure", failure);
        }
        return Optional.of(m);
    }

    /** The progress while the embedding runs, for /readyz; empty once it is done. */
    Optional<Object> pending() {
        return done() ? Optional.empty() : describe();
    }

    EmbeddingProgress.Snapshot snapshot() {
        return progress.snapshot();
    }

    /** Stops the embedding between chunks and waits (bounded) for the chunk in flight. */
    void close() {
        Thread t = worker;
        if (t != null && t.isAlive()) {
            t.interrupt();
            try {
                t.join(STOP_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
