package io.ragsearch.refresh;

import io.ragsearch.search.Project;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.store.CorpusStore;
import io.ragsearch.store.Migrations;
import io.ragsearch.store.StoredProject;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the catalog's database projects at the database's corpus versions. LISTEN/NOTIFY makes
 * a change visible at once; a poll every {@code pollInterval} catches what a notification can
 * miss (a reconnect, a write by a tool that does not notify). While the database is down the
 * last good indexes keep serving (readiness stays as it was), and reconnection retries with backoff.
 */
public final class DatabaseSync implements AutoCloseable {

    /** What builds a servable project from stored rows (the project loader, with the project's settings). */
    @FunctionalInterface
    public interface ProjectBuilder {
        Project build(StoredProject stored) throws IOException;
    }

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseSync.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final CorpusStore store;
    private final ProjectCatalog catalog;
    private final ProjectBuilder builder;
    private final Duration pollInterval;
    private final Map<String, Long> loaded = new ConcurrentHashMap<>();
    /** Projects whose stored version this server cannot serve, so that version is not read again. */
    private final Map<String, Refusal> refused = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean synced;
    private volatile String outage = "connecting";
    private volatile Instant outageSince = Instant.now();
    private volatile Connection listening;

    public DatabaseSync(CorpusStore store, ProjectCatalog catalog, ProjectBuilder builder, Duration pollInterval) {
        this.store = store;
        this.catalog = catalog;
        this.builder = builder;
        this.pollInterval = pollInterval;
        this.thread = new Thread(this::run, "database-sync");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /**
     * Empty once the database projects have been loaded; until then why not. After that a database
     * outage leaves readiness alone: the last good indexes keep answering, and one database blink
     * must not take every replica out of the Service at once ({@link #reachable()}, /info and a
     * metric tell about the outage instead).
     */
    public Optional<String> notReadyReason() {
        if (synced) {
            return Optional.empty();
        }
        String problem = outage;
        return Optional.of("no database project loaded yet: " + (problem == null ? "loading" : "database unreachable since "
                + outageSince + ": " + problem));
    }

    /** Whether the database answered the last time the sync asked. */
    public boolean reachable() {
        return outage == null;
    }

    /** Corpus versions in service, by project. */
    public Map<String, Long> loadedVersions() {
        return Map.copyOf(loaded);
    }

    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("url", store.database().url());
        String problem = outage;
        m.put("connected", problem == null);
        if (problem != null) {
            m.put("unreachableSince", outageSince.toString());
            m.put("problem", problem);
            m.put("serving", synced ? "the last good index" : "nothing from the database yet");
        }
        m.put("corpusVersions", loadedVersions());
        if (!refused.isEmpty()) {
            Map<String, String> shown = new java.util.TreeMap<>();
            refused.forEach((name, r) -> shown.put(name, "version " + r.version() + ": " + r.why()));
            m.put("refused", shown);
        }
        return m;
    }

    private void run() {
        Duration backoff = Duration.ofSeconds(1);
        boolean migrated = false;
        while (running) {
            try {
                if (!migrated) {
                    try (Connection c = store.database().connection()) {
                        Migrations.apply(c);
                    }
                    migrated = true;
                }
                listening = store.database().dedicatedConnection();
                try (Statement s = listening.createStatement()) {
                    s.execute("LISTEN " + CorpusStore.CHANNEL);
                }
                refresh();
                if (outage != null) {
                    LOG.info("database {} {}", store.database().url(), synced ? "answers again" : "connected");
                }
                outage = null;
                synced = true;
                backoff = Duration.ofSeconds(1);
                PGConnection pg = listening.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notes = pg.getNotifications((int) pollInterval.toMillis());
                    if (notes != null && notes.length > 0) {
                        LOG.info("corpus change notified for {}", notes[0].getParameter());
                    }
                    refresh();
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                String why = store.database().problem(e);
                if (outage == null || !outage.equals(why)) {
                    outageSince = outage == null ? Instant.now() : outageSince;
                    LOG.warn("database {} unreachable: {}; keeping the last good index, retrying", store.database().url(), why);
                }
                outage = why;
                closeListening();
                sleep(backoff);
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }

    /** Loads every project whose corpus version moved; drops projects the database no longer has. */
    private void refresh() throws SQLException {
        Map<String, Long> versions = store.versions();
        for (Map.Entry<String, Long> v : versions.entrySet()) {
            String name = v.getKey();
            if (v.getValue().equals(loaded.get(name)) || refusedAt(name, v.getValue())) {
                continue;
            }
            long t0 = System.nanoTime();
            Optional<StoredProject> stored = store.read(name, 0);
            if (stored.isEmpty()) {
                continue;
            }
            try {
                catalog.put(builder.build(stored.get()));
                loaded.put(name, stored.get().version());
                refused.remove(name);
                LOG.info("project {} at corpus version {} in service ({} ms)", name, stored.get().version(),
                        (System.nanoTime() - t0) / 1_000_000);
            } catch (IOException | RuntimeException e) {
                refused.put(name, new Refusal(stored.get().version(), e.getMessage()));
                LOG.error("project {} refused: {}", name, e.getMessage());
            }
        }
        Set<String> gone = new java.util.HashSet<>(loaded.keySet());
        gone.removeAll(versions.keySet());
        for (String name : gone) {
            catalog.remove(name);
            loaded.remove(name);
            LOG.info("project {} no longer in the database: removed", name);
        }
    }

    private boolean refusedAt(String name, long version) {
        Refusal r = refused.get(name);
        return r != null && r.version() == version;
    }

    private record Refusal(long version, String why) {
    }

    private void closeListening() {
        Connection c = listening;
        listening = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // already broken
            }
        }
    }

    private void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        closeListening();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
