package io.ragsearch.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress readiness, /info and the operator show: counts, and time left from the rate measured in characters. */
class EmbeddingProgressTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void timeLeftComesFromTheCharactersEmbeddedSinceTheFirstChunk() {
        AtomicLong now = new AtomicLong();
        EmbeddingProgress p = new EmbeddingProgress(now::get);
        p.expect(1_000, 100_000);
        p.reused(200, 20_000); // from the cache: done, but no measure of the rate
        assertNull(p.snapshot().secondsLeft(), "no rate before any chunk");
        now.set(10 * SECOND);
        p.embedded(64, 4_000); // its own start is unknown: only the time after it counts
        assertNull(p.snapshot().secondsLeft());
        now.set(20 * SECOND);
        p.embedded(64, 8_000); // 8,000 characters in 10 s
        EmbeddingProgress.Snapshot s = p.snapshot();
        assertEquals(328, s.articlesDone());
        assertEquals(1_000, s.articlesTotal());
        // 100,000 − 32,000 = 68,000 characters left at 800 per second.
        assertEquals(85L, s.secondsLeft());
        assertTrue(s.describe().startsWith("328 of 1000 articles embedded, about 85 s left"), s.describe());
        p.finish();
        assertEquals(0L, p.snapshot().secondsLeft());
        assertTrue(p.snapshot().finished());
    }

    @Test
    void longWaitsReadInMinutesAndHours() {
        AtomicLong now = new AtomicLong();
        EmbeddingProgress p = new EmbeddingProgress(now::get);
        p.expect(20_000, 10_000_000);
        p.embedded(64, 10_000);
        now.set(10 * SECOND);
        p.embedded(64, 10_000); // 1,000 characters a second: 9,980,000 left
        assertTrue(p.snapshot().describe().endsWith("about 2.8 h left"), p.snapshot().describe());
    }
}
