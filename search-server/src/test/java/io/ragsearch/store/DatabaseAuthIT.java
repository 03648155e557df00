package io.ragsearch.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.mcp.TestServers;
import io.ragsearch.server.SearchServerApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 low: a wrong database password was reported only as the pool's "Connection is not
 * available, request timed out". The test database trusts everyone, so one role of its own is
 * made to need a password (a pg_hba.conf line for that role alone, then a reload).
 */
class DatabaseAuthIT {

    private static final String ROLE = "ragsearch_pwcheck";
    private static final String RIGHT = "right-password-1";
    private static final String WRONG = "wrong-password-2";
    private static final String SAYS = "authentication failed for user '" + ROLE
            + "': the database refused the user name or password (RAGSEARCH_DB_USER, RAGSEARCH_DB_PASSWORD)";

    @BeforeAll
    static void aRoleThatNeedsAPassword() throws Exception {
        try (Database db = TestDatabase.open(); Connection c = db.connection(); Statement s = c.createStatement()) {
            s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + ROLE + "') THEN CREATE ROLE " + ROLE
                    + " LOGIN; END IF; END $$");
            s.execute("ALTER ROLE " + ROLE + " PASSWORD '" + RIGHT + "'");
            Path hba;
            try (ResultSet r = s.executeQuery("SHOW hba_file")) {
                r.next();
                hba = Path.of(r.getString(1));
            }
            String line = "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\n";
            String rules = Files.readString(hba);
            if (!rules.startsWith(line)) {
                Files.writeString(hba, line + rules); // first match wins: this role only, everyone else still trusted
            }
            s.execute("SELECT pg_reload_conf()");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            try (Connection c = java.sql.DriverManager.getConnection(TestDatabase.url(), ROLE, WRONG)) {
                return false;
            } catch (SQLException e) {
                return true;
            }
        });
    }

    @Test
    void aWrongPasswordIsNamedAsSuchNotAsAPoolTimeout() throws Exception {
        try (Database db = new Database(TestDatabase.url(), ROLE, WRONG)) {
            SQLException e = assertThrows(SQLException.class, db::connection);
            assertTrue(e.getMessage().contains("request timed out"), "what the pool alone says: " + e.getMessage());
            assertEquals(SAYS, db.problem(e));
            assertFalse(db.problem(e).contains(WRONG));
        }
        try (Database db = new Database(TestDatabase.url(), ROLE, RIGHT); Connection c = db.connection()) {
            assertTrue(c.isValid(2), "the right password still connects");
        }
    }

    @Test
    void theServerShowsAWrongPasswordInInfo() throws Exception {
        ServerSettings config = new ServerSettings(TestServers.server("127.0.0.1", 4, 32, null), null, null,
                new ServerSettings.Database(TestDatabase.url(), ROLE, WRONG, 1), List.of());
        try (SearchServerApp app = SearchServerApp.start(config, Map.of())) {
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            java.net.http.HttpRequest get = java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + app.adminPort() + "/info")).build();
            await().atMost(Duration.ofSeconds(30)).until(() -> http.send(get, java.net.http.HttpResponse.BodyHandlers.ofString())
                    .body().contains(SAYS));
            String info = http.send(get, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            assertFalse(info.contains(WRONG), info);
        }
    }
}
