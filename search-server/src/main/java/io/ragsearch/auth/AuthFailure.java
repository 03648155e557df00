package io.ragsearch.auth;

import java.util.Locale;

/**
 * Why a request was not let through, as counted ({@code ragsearch_auth_failures_total{reason}})
 * and answered. The answer's words name the rule the token broke, never the token, its claims'
 * values or the keys the server holds.
 */
public enum AuthFailure {
    MISSING(401, null, "missing bearer token"),
    MALFORMED(401, "invalid_token", "the bearer token is not a signed JWT"),
    ALGORITHM(401, "invalid_token", "the token's signature algorithm is not accepted"),
    UNKNOWN_KEY(401, "invalid_token", "the token's signing key is not one of the issuer's keys"),
    BAD_SIGNATURE(401, "invalid_token", "the token's signature does not verify"),
    ISSUER(401, "invalid_token", "the token was issued by another issuer"),
    AUDIENCE(401, "invalid_token", "the token was issued for another audience"),
    EXPIRED(401, "invalid_token", "the token has expired"),
    NOT_YET_VALID(401, "invalid_token", "the token is not valid yet"),
    NO_SUBJECT(401, "invalid_token", "the token names no subject"),
    STATIC_TOKEN(401, "invalid_token", "invalid bearer token"),
    INSUFFICIENT_SCOPE(403, "insufficient_scope", "the token does not grant access to this server"),
    KEYS_UNAVAILABLE(503, null, "the issuer's keys cannot be fetched now; retry later");

    private final int status;
    private final String error;
    private final String message;

    AuthFailure(int status, String error, String message) {
        this.status = status;
        this.error = error;
        this.message = message;
    }

    public int status() {
        return status;
    }

    /** RFC 6750's error code for the WWW-Authenticate challenge, or null (no token given, or no challenge). */
    public String error() {
        return error;
    }

    public String message() {
        return message;
    }

    /** The metric label. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
