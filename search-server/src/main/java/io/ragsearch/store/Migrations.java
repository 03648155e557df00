package io.ragsearch.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plain numbered SQL migrations (db/migration/V{n}__{name}.sql), applied in order in one
 * transaction under an advisory lock, recorded in schema_migrations. Chosen over Flyway: two
 * small files do not need a framework, and the lock is the one thing that matters when several
 * replicas and an ingest start at once.
 */
public final class Migrations {

    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    /** Arbitrary, fixed: every ragsearch process takes the same advisory lock. */
    private static final long LOCK_KEY = 0x7261677365617263L;
    static final List<String> FILES = List.of("V1__corpus.sql");

    private Migrations() {
    }

    public static void apply(Connection c) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
            s.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, "
                    + "applied_at timestamptz NOT NULL DEFAULT now())");
            Set<Integer> applied = new HashSet<>();
            try (ResultSet rs = s.executeQuery("SELECT version FROM schema_migrations")) {
                while (rs.next()) {
                    applied.add(rs.getInt(1));
                }
            }
            for (String file : FILES) {
                int version = Integer.parseInt(file.substring(1, file.indexOf("__")));
                if (applied.contains(version)) {
                    continue;
                }
                s.execute(read(file));
                try (PreparedStatement p = c.prepareStatement("INSERT INTO schema_migrations (version, name) VALUES (?, ?)")) {
                    p.setInt(1, version);
                    p.setString(2, file);
                    p.executeUpdate();
                }
                LOG.info("database schema: applied {}", file);
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static String read(String file) {
        try (InputStream in = Migrations.class.getResourceAsStream("/db/migration/" + file)) {
            if (in == null) {
                throw new IllegalStateException("migration " + file + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
