package io.ragsearch.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Where the corpus record lives: a small HikariCP pool for reads and writes, and separate plain
 * connections for LISTEN (a pooled connection would be handed to others between polls).
 */
public final class Database implements AutoCloseable {

    /** Reads are a few large queries per corpus change; writes come from one ingest at a time. */
    private static final int POOL_SIZE = 4;
    private static final int CONNECT_TIMEOUT_SECONDS = 5;

    /** "//user:secret@host" */
    private static final Pattern USER_INFO_PASSWORD = Pattern.compile("(//[^/@:?;]*:)[^/@]*@");
    /** "?password=secret&", ";password=secret", "&sslpassword=secret" */
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)([?&;][a-z]*password=)[^&;]*");

    private final String url;
    private final String user;
    private final String password;
    private final HikariDataSource pool;

    public Database(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(0);
        config.setPoolName("ragsearch-db");
        config.setConnectionTimeout(CONNECT_TIMEOUT_SECONDS * 1000L);
        // Start even when the database is down: readiness reports it and the sync retries.
        config.setInitializationFailTimeout(-1);
        config.addDataSourceProperty("connectTimeout", CONNECT_TIMEOUT_SECONDS);
        config.addDataSourceProperty("socketTimeout", 60);
        config.addDataSourceProperty("ApplicationName", "ragsearch");
        this.pool = new HikariDataSource(config);
    }

    public Connection connection() throws SQLException {
        return pool.getConnection();
    }

    /** A connection outside the pool, for LISTEN. */
    public Connection dedicatedConnection() throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("ApplicationName", "ragsearch-listen");
        return DriverManager.getConnection(url, p);
    }

    /** What a failure of this database means, said plainly (a wrong password, not a pool timeout). */
    public String problem(Throwable failure) {
        return DatabaseProblem.describe(failure, user);
    }

    /** The URL for display: a password inside it (user info or a parameter) is replaced by ***. */
    public String url() {
        return redact(url);
    }

    /** Any JDBC URL with its password hidden; every place that prints a URL goes through this. */
    public static String redact(String jdbcUrl) {
        if (jdbcUrl == null) {
            return null;
        }
        return PASSWORD_PARAMETER.matcher(USER_INFO_PASSWORD.matcher(jdbcUrl).replaceFirst("$1***@"))
                .replaceAll("$1***");
    }

    @Override
    public void close() {
        pool.close();
    }
}
