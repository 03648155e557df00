package io.ragsearch.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks one bearer token: a signed JWT (JWS compact form), with an algorithm on the allow-list,
 * signed by one of the issuer's keys (the signature checked by the JOSE library), with claims
 * {@link ClaimsCheck} accepts; then the access policy says which projects its subject may use.
 */
public final class TokenVerifier implements AutoCloseable {

    /** Longer than any real JWT (a Kubernetes token is about 1 KB); parsing a huge one is work for nothing. */
    static final int MAX_TOKEN_CHARS = 16 * 1024;

    private final JwtSettings settings;
    private final JwksCache keys;
    private final Clock clock;
    private final DefaultJWSVerifierFactory verifiers = new DefaultJWSVerifierFactory();

    TokenVerifier(JwtSettings settings, JwksCache keys, Clock clock) {
        this.settings = settings;
        this.keys = keys;
        this.clock = clock;
    }

    /** A verifier that fetches the issuer's keys now and keeps them fresh. */
    public static TokenVerifier start(JwtSettings settings) {
        JwksCache cache = new JwksCache(new JwksFetcher(settings), Clock.systemUTC());
        cache.start();
        return new TokenVerifier(settings, cache, Clock.systemUTC());
    }

    public JwtSettings settings() {
        return settings;
    }

    public JwksCache keys() {
        return keys;
    }

    /** The caller, or why the token is refused. */
    public Verdict verify(String token) {
        if (token.length() > MAX_TOKEN_CHARS) {
            return Verdict.refused(AuthFailure.MALFORMED);
        }
        JWT jwt;
        try {
            jwt = JWTParser.parse(token);
        } catch (ParseException e) {
            return Verdict.refused(AuthFailure.MALFORMED);
        }
        if (!(jwt instanceof SignedJWT signed)) {
            // An unsecured JWT (alg none) or an encrypted one: neither is signed by the issuer.
            return Verdict.refused(jwt.getHeader().getAlgorithm() != null && "none".equals(jwt.getHeader().getAlgorithm().getName())
                    ? AuthFailure.ALGORITHM : AuthFailure.MALFORMED);
        }
        JWSHeader header = signed.getHeader();
        if (!settings.algorithms().contains(header.getAlgorithm().getName())) {
            return Verdict.refused(AuthFailure.ALGORITHM);
        }
        if (!keys.hasKeys()) {
            return Verdict.refused(AuthFailure.KEYS_UNAVAILABLE);
        }
        List<JWK> candidates = candidates(header);
        if (candidates.isEmpty() && keys.refetch(false)) {
            candidates = candidates(header); // a key rotated in since the last fetch
        }
        if (candidates.isEmpty()) {
            return Verdict.refused(AuthFailure.UNKNOWN_KEY);
        }
        if (!verifies(signed, candidates)) {
            return Verdict.refused(AuthFailure.BAD_SIGNATURE);
        }
        Map<String, Object> claims;
        try {
            claims = signed.getJWTClaimsSet().getClaims();
        } catch (ParseException e) {
            return Verdict.refused(AuthFailure.MALFORMED);
        }
        Optional<AuthFailure> problem = ClaimsCheck.problem(claims, settings, clock.instant());
        if (problem.isPresent()) {
            return Verdict.refused(problem.get());
        }
        Caller caller = new Caller((String) claims.get("sub"), settings.access().scope(claims));
        return Verdict.accepted(caller);
    }

    /** The issuer's keys this header may name: its kid (when given), a key type that fits the algorithm, not an encryption key. */
    private List<JWK> candidates(JWSHeader header) {
        KeyType type = KeyType.forAlgorithm(header.getAlgorithm());
        return keys.keys().stream()
                .filter(k -> header.getKeyID() == null || header.getKeyID().equals(k.getKeyID()))
                .filter(k -> type != null && type.equals(k.getKeyType()))
                .filter(k -> k.getKeyUse() == null || KeyUse.SIGNATURE.equals(k.getKeyUse()))
                .filter(k -> k.getAlgorithm() == null || k.getAlgorithm().equals(header.getAlgorithm()))
                .toList();
    }

    private boolean verifies(SignedJWT jwt, List<JWK> candidates) {
        for (JWK jwk : candidates) {
            try {
                Key key = ((AsymmetricJWK) jwk).toPublicKey();
                JWSVerifier verifier = verifiers.createJWSVerifier(jwt.getHeader(), key);
                if (jwt.verify(verifier)) {
                    return true;
                }
            } catch (JOSEException | ClassCastException e) {
                // this key cannot check this signature; the next may
            }
        }
        return false;
    }

    @Override
    public void close() {
        keys.close();
    }

    /** A token's outcome: the caller, or the reason it was refused. */
    public record Verdict(Caller caller, AuthFailure failure) {

        static Verdict accepted(Caller caller) {
            return new Verdict(caller, null);
        }

        static Verdict refused(AuthFailure failure) {
            return new Verdict(null, failure);
        }

        public boolean ok() {
            return caller != null;
        }
    }
}
