package io.ragsearch.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A password inside a JDBC URL never reaches /info or the log. */
class DatabaseUrlTest {

    @Test
    void passwordsInUrlsAreRedacted() {
        assertEquals("jdbc:postgresql://db:5432/rag?user=rag&password=***&ssl=true",
                Database.redact("jdbc:postgresql://db:5432/rag?user=rag&password=hunter2&ssl=true"));
        assertEquals("jdbc:postgresql://db/rag?PASSWORD=***", Database.redact("jdbc:postgresql://db/rag?PASSWORD=hunter2"));
        assertEquals("jdbc:postgresql://rag:***@db:5432/rag", Database.redact("jdbc:postgresql://rag:hunter2@db:5432/rag"));
        assertEquals("jdbc:postgresql://db/rag?sslpassword=***", Database.redact("jdbc:postgresql://db/rag?sslpassword=k3y"));
        assertEquals("jdbc:postgresql://localhost:5432/rag", Database.redact("jdbc:postgresql://localhost:5432/rag"));
    }
}
