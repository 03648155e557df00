package io.ragsearch.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OIDC issuer for tests: keys made here, a real HTTP server on loopback serving the discovery
 * document and the JWKS (optionally only to a bearer token, as the Kubernetes API server does),
 * and tokens signed with those keys the way an issuer signs them.
 */
public final class TestIssuer implements AutoCloseable {

    private final HttpServer http;
    private final List<JWK> published = new CopyOnWriteArrayList<>();
    private final AtomicInteger jwksRequests = new AtomicInteger();
    private volatile String requiredBearer;
    private volatile boolean down;

    public TestIssuer() throws IOException {
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/.well-known/openid-configuration", ex -> answer(ex,
                "{\"issuer\":\"" + issuer() + "\",\"jwks_uri\":\"" + jwksUrl() + "\",\"response_types_supported\":[\"id_token\"],"
                        + "\"subject_types_supported\":[\"public\"],\"id_token_signing_alg_values_supported\":[\"RS256\"]}"));
        http.createContext("/openid/v1/jwks", ex -> {
            jwksRequests.incrementAndGet();
            answer(ex, new JWKSet(List.copyOf(published)).toString(true));
        });
        http.start();
    }

    public String issuer() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    public String jwksUrl() {
        return issuer() + "/openid/v1/jwks";
    }

    public int jwksRequests() {
        return jwksRequests.get();
    }

    /** From now on the keys (and the discovery document) are served only to {@code Authorization: Bearer token}. */
    public void requireBearer(String token) {
        requiredBearer = token;
    }

    /** While down, every request is answered 500. */
    public void down(boolean value) {
        down = value;
    }

    public static RSAKey rsa(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ECKey ec(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Publishes the public half of a key in the JWKS. */
    public void publish(JWK key) {
        published.add(key.toPublicJWK());
    }

    /** Claims as a Kubernetes ServiceAccount token carries them, valid for ten minutes. */
    public JWTClaimsSet.Builder serviceAccount(String namespace, String name, String audience) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(issuer()).audience(audience).subject("system:serviceaccount:" + namespace + ":" + name)
                .issueTime(Date.from(now)).notBeforeTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600)))
                .claim("kubernetes.io", Map.of("namespace", namespace, "serviceaccount", Map.of("name", name, "uid", "u-" + name)));
    }

    /** A JWS signed with the key, naming its kid, with the key's usual algorithm. */
    public static String sign(JWK key, JWTClaimsSet claims) {
        try {
            JWSSigner signer = key instanceof RSAKey r ? new RSASSASigner(r) : new ECDSASigner((ECKey) key);
            JWSAlgorithm alg = key instanceof RSAKey ? JWSAlgorithm.RS256 : JWSAlgorithm.ES256;
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).build(), claims);
            jwt.sign(signer);
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private void answer(HttpExchange ex, String body) throws IOException {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        int status = down ? 500 : requiredBearer != null && !("Bearer " + requiredBearer).equals(auth) ? 401 : 200;
        byte[] bytes = (status == 200 ? body : "{\"kind\":\"Status\",\"code\":" + status + "}").getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
