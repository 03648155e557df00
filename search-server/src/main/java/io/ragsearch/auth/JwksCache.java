package io.ragsearch.auth;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The issuer's public keys, fetched at start and kept fresh: refreshed every {@link #REFRESH}, retried
 * every {@link #RETRY} while none could be had, and fetched again when a token names a key we do not
 * hold (a rotation), at most once per {@link #MIN_REFETCH} so that a stream of tokens with made-up key
 * ids cannot turn this server into a load generator against the issuer. Keys once fetched are kept
 * through a failed refresh (an API server restart must not lock every agent out); with no keys at all
 * the server is not ready and every token is refused.
 */
public final class JwksCache implements AutoCloseable {

    static final Duration REFRESH = Duration.ofMinutes(5);
    static final Duration RETRY = Duration.ofSeconds(5);
    static final Duration MIN_REFETCH = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(JwksCache.class);

    private final JwksFetcher fetcher;
    private final Clock clock;
    private final ScheduledExecutorService refresher;
    private volatile JWKSet keys;
    private volatile String lastProblem = "not fetched yet";
    private Instant lastFetch = Instant.EPOCH; // guarded by this

    JwksCache(JwksFetcher fetcher, Clock clock) {
        this.fetcher = fetcher;
        this.clock = clock;
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jwks-refresh");
            t.setDaemon(true);
            return t;
        });
    }

    /** Fetches once now, then keeps the keys fresh in the background. */
    void start() {
        refresher.execute(this::scheduledRefresh);
    }

    private void scheduledRefresh() {
        boolean ok = refetch(true);
        refresher.schedule(this::scheduledRefresh, (ok ? REFRESH : RETRY).toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Fetches now unless a fetch happened within {@link #MIN_REFETCH} ({@code force}: the scheduled one always runs). */
    synchronized boolean refetch(boolean force) {
        Instant now = clock.instant();
        if (!force && now.isBefore(lastFetch.plus(MIN_REFETCH))) {
            return false;
        }
        lastFetch = now;
        try {
            JWKSet fetched = fetcher.fetch();
            if (fetched.getKeys().isEmpty()) {
                throw new IOException("the JWKS holds no public key");
            }
            keys = fetched;
            lastProblem = null;
            return true;
        } catch (IOException | RuntimeException e) {
            lastProblem = e.getMessage();
            LOG.warn("auth: cannot fetch the issuer's keys ({}): {}", keys == null ? "no keys yet, every token refused"
                    : "keeping the " + keys.getKeys().size() + " key(s) fetched before", e.getMessage());
            return false;
        }
    }

    /** The keys held now (empty: none ever fetched). */
    List<JWK> keys() {
        JWKSet k = keys;
        return k == null ? List.of() : k.getKeys();
    }

    boolean hasKeys() {
        return keys != null;
    }

    /** The readiness reason while no key could be fetched. */
    public Optional<String> notReadyReason() {
        return keys != null ? Optional.empty()
                : Optional.of("auth: the issuer's keys (JWKS) could not be fetched: " + lastProblem);
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
