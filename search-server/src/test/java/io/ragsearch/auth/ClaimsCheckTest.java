package io.ragsearch.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ragsearch.search.ProjectScope;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClaimsCheckTest {

    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");

    private static JwtSettings settings(List<String> scopes) {
        return new JwtSettings("https://issuer.example", Set.of("ragsearch", "https://rag.example/mcp"), Optional.empty(),
                Optional.empty(), Optional.empty(), Set.of("RS256"), Duration.ofSeconds(60), scopes, Optional.empty(),
                new AccessPolicy(List.of(), "groups"));
    }

    private static Map<String, Object> good() {
        Map<String, Object> c = new HashMap<>();
        c.put("iss", "https://issuer.example");
        c.put("aud", List.of("other", "ragsearch"));
        c.put("sub", "system:serviceaccount:agents:hr");
        c.put("exp", Date.from(NOW.plusSeconds(600)));
        c.put("nbf", Date.from(NOW.minusSeconds(10)));
        return c;
    }

    private static Optional<AuthFailure> check(Map<String, Object> claims, List<String> scopes) {
        return ClaimsCheck.problem(claims, settings(scopes), NOW);
    }

    private static Map<String, Object> with(String claim, Object value) {
        Map<String, Object> c = good();
        if (value == null) {
            c.remove(claim);
        } else {
            c.put(claim, value);
        }
        return c;
    }

    @Test
    void goodClaimsPass() {
        assertEquals(Optional.empty(), check(good(), List.of()));
        assertEquals(Optional.empty(), check(with("aud", "https://rag.example/mcp"), List.of()), "a single audience as a string");
    }

    @Test
    void eachBrokenRuleIsNamed() {
        assertEquals(Optional.of(AuthFailure.ISSUER), check(with("iss", "https://issuer.example/"), List.of()), "exact, no normalising");
        assertEquals(Optional.of(AuthFailure.ISSUER), check(with("iss", null), List.of()));
        assertEquals(Optional.of(AuthFailure.AUDIENCE), check(with("aud", "kubernetes"), List.of()));
        assertEquals(Optional.of(AuthFailure.AUDIENCE), check(with("aud", null), List.of()));
        assertEquals(Optional.of(AuthFailure.EXPIRED), check(with("exp", null), List.of()), "no expiry: good for ever, refused");
        assertEquals(Optional.of(AuthFailure.NO_SUBJECT), check(with("sub", " "), List.of()));
        assertEquals(Optional.of(AuthFailure.INSUFFICIENT_SCOPE), check(with("scope", "read"), List.of("ragsearch")));
        assertEquals(Optional.empty(), check(with("scope", "read ragsearch"), List.of("ragsearch")));
        assertEquals(Optional.empty(), check(with("scp", List.of("ragsearch")), List.of("ragsearch")));
    }

    /** The skew is a minute each way: a token 59 s past expiry is still good, at 60 s it is not. */
    @Test
    void expiryAndNotBeforeAllowTheSkewAndNoMore() {
        assertEquals(Optional.empty(), check(with("exp", Date.from(NOW.minusSeconds(59))), List.of()));
        assertEquals(Optional.of(AuthFailure.EXPIRED), check(with("exp", Date.from(NOW.minusSeconds(60))), List.of()));
        assertEquals(Optional.empty(), check(with("nbf", Date.from(NOW.plusSeconds(60))), List.of()));
        assertEquals(Optional.of(AuthFailure.NOT_YET_VALID), check(with("nbf", Date.from(NOW.plusSeconds(61))), List.of()));
        assertEquals(ProjectScope.NONE, new AccessPolicy(List.of(), "groups").scope(good()));
    }
}
