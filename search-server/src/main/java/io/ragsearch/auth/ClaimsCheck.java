package io.ragsearch.auth;

import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The claims of a token whose signature has verified, checked as a pure function of the claims and
 * the time: issuer (exact), audience (RFC 8707: one of ours), expiry (required) and not-before
 * with the configured skew, a subject, and the required scopes.
 */
final class ClaimsCheck {

    private ClaimsCheck() {
    }

    /** Empty when the claims pass; else the first rule broken (scope last: it is a 403, the rest 401). */
    static Optional<AuthFailure> problem(Map<String, Object> claims, JwtSettings settings, Instant now) {
        if (!settings.issuer().equals(claims.get("iss"))) {
            return Optional.of(AuthFailure.ISSUER);
        }
        if (AccessPolicy.strings(claims.get("aud")).stream().noneMatch(settings.audiences()::contains)) {
            return Optional.of(AuthFailure.AUDIENCE);
        }
        long skew = settings.clockSkew().toSeconds();
        Instant exp = instant(claims.get("exp"));
        // A token without an expiry would be good for ever: refused as expired.
        if (exp == null || !now.isBefore(exp.plusSeconds(skew))) {
            return Optional.of(AuthFailure.EXPIRED);
        }
        Instant nbf = instant(claims.get("nbf"));
        if (nbf != null && now.plusSeconds(skew).isBefore(nbf)) {
            return Optional.of(AuthFailure.NOT_YET_VALID);
        }
        if (!(claims.get("sub") instanceof String sub) || sub.isBlank()) {
            return Optional.of(AuthFailure.NO_SUBJECT);
        }
        if (!scopes(claims).containsAll(settings.scopes())) {
            return Optional.of(AuthFailure.INSUFFICIENT_SCOPE);
        }
        return Optional.empty();
    }

    /** {@code scope} is a space-separated string (RFC 8693 / 9068); some issuers send {@code scp} as an array. */
    private static Set<String> scopes(Map<String, Object> claims) {
        Set<String> out = new HashSet<>();
        if (claims.get("scope") instanceof String s) {
            out.addAll(Arrays.asList(s.trim().split("\\s+")));
        }
        Object scp = claims.get("scp");
        if (scp instanceof String s) {
            out.addAll(Arrays.asList(s.trim().split("\\s+")));
        } else if (scp instanceof List<?> l) {
            l.stream().filter(String.class::isInstance).map(String.class::cast).forEach(out::add);
        }
        return out;
    }

    /** Nimbus gives the registered time claims as Dates; anything else in their place is no time. */
    private static Instant instant(Object value) {
        if (value instanceof Date d) {
            return d.toInstant();
        }
        if (value instanceof Number n) {
            return Instant.ofEpochSecond(n.longValue());
        }
        return null;
    }
}
