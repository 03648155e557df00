package io.ragsearch.store;

import java.time.Duration;

/** The corpus database: where it is, who connects, and how often the server checks its corpus versions. */
public record DatabaseSettings(String url, String user, String password, Duration pollInterval) {

    /** Besides LISTEN/NOTIFY: catches what a notification can miss (a reconnect, a writer that does not notify). */
    public static final Duration DEFAULT_POLL = Duration.ofSeconds(10);

    public DatabaseSettings {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("a database needs a URL");
        }
    }

    public Database open() {
        return new Database(url, user, password);
    }

    @Override
    public String toString() {
        return "DatabaseSettings[" + Database.redact(url) + ", user=" + user + ", poll=" + pollInterval + "]";
    }
}
