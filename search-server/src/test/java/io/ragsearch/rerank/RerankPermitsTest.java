package io.ragsearch.rerank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The permits an in-place resize moves: runs in progress finish, new ones wait for the new bound. */
class RerankPermitsTest {

    @Test
    void aDecreaseHoldsNewRunsUntilTheRunningOnesFitAndSaysWhenItIsInForce() throws Exception {
        RerankPermits permits = new RerankPermits(3);
        assertTrue(permits.tryAcquire(0));
        assertTrue(permits.tryAcquire(0));
        assertFalse(permits.setLimit(1), "two runs hold permits: the new bound of 1 is not in force yet");
        assertFalse(permits.inForce());
        assertFalse(permits.tryAcquire(20), "no new run starts while the running ones are at or above the new bound");
        permits.release();
        assertTrue(permits.inForce(), "one run left, bound 1: in force");
        assertFalse(permits.tryAcquire(20), "the one place is still taken");
        permits.release();
        assertTrue(permits.tryAcquire(0));
        assertEquals(1, permits.held());
        assertEquals(1, permits.limit());
    }

    @Test
    void anIncreaseWakesTheRunsWaitingForAPlace() throws Exception {
        RerankPermits permits = new RerankPermits(1);
        assertTrue(permits.tryAcquire(0));
        ExecutorService waiters = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> first = waiters.submit(() -> permits.tryAcquire(60_000));
            Future<Boolean> second = waiters.submit(() -> permits.tryAcquire(60_000));
            assertFalse(CompletableFuture.supplyAsync(() -> first.isDone() || second.isDone()).get(),
                    "both wait while the one permit is held");
            assertTrue(permits.setLimit(3));
            assertTrue(first.get(30, TimeUnit.SECONDS), "a waiter got one of the new permits");
            assertTrue(second.get(30, TimeUnit.SECONDS), "and the other one too, without a release");
            assertEquals(3, permits.held());
        } finally {
            waiters.shutdownNow();
        }
    }

    @Test
    void aLimitBelowOneAndAReleaseWithoutAPermitAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RerankPermits(0));
        RerankPermits permits = new RerankPermits(1);
        assertThrows(IllegalArgumentException.class, () -> permits.setLimit(0));
        assertEquals(1, permits.limit(), "a refused limit changes nothing");
        assertThrows(IllegalStateException.class, permits::release);
    }
}
