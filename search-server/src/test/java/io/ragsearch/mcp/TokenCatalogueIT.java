package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.ragsearch.auth.TestIssuer;
import io.ragsearch.server.SearchServerApp;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The bad-input catalogue's token part: bad, forged and odd bearer tokens sent to a server in
 * mode jwt (keys made here, served by a real JWKS endpoint on loopback). Each must be refused
 * with 401 and a challenge naming the resource metadata and {@code error="invalid_token"} (or 403
 * {@code insufficient_scope}), a JSON-RPC error body, no stack trace, class name, path or echo
 * of the token, and the server must answer /livez after it. docs/security.md lists the rules.
 */
class TokenCatalogueIT {

    private static final Pattern LEAK = Pattern.compile(
            "\\tat |Exception\\b|\\bjava\\.|\\bjakarta\\.|org\\.eclipse|io\\.ragsearch|com\\.nimbusds|/work/|/tmp/|/root/");
    private static TestIssuer issuer;
    private static RSAKey rsa;
    private static SearchServerApp app;

    @BeforeAll
    static void start() throws Exception {
        issuer = new TestIssuer();
        rsa = TestIssuer.rsa("rsa-1");
        issuer.publish(rsa);
        app = SearchServerApp.start(JwtAuthIT.config(issuer, null, issuer.jwksUrl()), Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        issuer.close();
    }

    /** A token as Authorization sends it, and the status it must get. */
    private record Case(String name, String authorization, int status) {
    }

    private static JWTClaimsSet.Builder good() {
        return issuer.serviceAccount("agents", "hr", JwtAuthIT.AUDIENCE);
    }

    private static String b64(String json) {
        return Base64URL.encode(json.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** A JWS with any header JSON, signed (RS256) with a key of our choice: what an attacker can make. */
    private static String signedWithHeader(String headerJson, JWTClaimsSet claims, RSAKey key) {
        return signedRaw(headerJson, claims.toString(), key);
    }

    /** Header and payload as any JSON text, signed with the key over exactly those bytes. */
    private static String signedRaw(String headerJson, String payloadJson, RSAKey key) {
        try {
            String input = b64(headerJson) + "." + b64(payloadJson);
            Base64URL sig = new RSASSASigner(key).sign(new JWSHeader(JWSAlgorithm.RS256), input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + sig;
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hmac(JWSAlgorithm alg, byte[] secret) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID("rsa-1").build(), good().build());
            jwt.sign(new MACSigner(secret));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Case> cases() throws Exception {
        List<Case> cases = new ArrayList<>();
        String valid = TestIssuer.sign(rsa, good().build());
        String[] parts = valid.split("\\.");
        RSAKey attacker = TestIssuer.rsa("rsa-1");
        String claims = good().build().toString();

        // alg none in every spelling, with and without a signature part.
        for (String alg : List.of("none", "None", "NONE", "nOnE")) {
            cases.add(new Case("alg " + alg, "Bearer " + b64("{\"alg\":\"" + alg + "\"}") + "." + b64(claims) + ".", 401));
            cases.add(new Case("alg " + alg + " with the real signature", "Bearer " + b64("{\"alg\":\"" + alg + "\",\"kid\":\"rsa-1\"}")
                    + "." + parts[1] + "." + parts[2], 401));
        }
        // HMAC with the public key as the secret (the key-confusion attack), in every form it is published.
        byte[] der = rsa.toRSAPublicKey().getEncoded();
        byte[] pem = ("-----BEGIN PUBLIC KEY-----\n" + java.util.Base64.getMimeEncoder().encodeToString(der) + "\n-----END PUBLIC KEY-----\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] jwkJson = rsa.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8);
        for (JWSAlgorithm alg : List.of(JWSAlgorithm.HS256, JWSAlgorithm.HS384, JWSAlgorithm.HS512)) {
            cases.add(new Case(alg + " keyed with the public key (DER)", "Bearer " + hmac(alg, der), 401));
            cases.add(new Case(alg + " keyed with the public key (PEM)", "Bearer " + hmac(alg, pem), 401));
            cases.add(new Case(alg + " keyed with the public JWK", "Bearer " + hmac(alg, jwkJson), 401));
        }
        // Headers that point at the attacker's own key: never followed.
        String attackerJwk = attacker.toPublicJWK().toJSONString();
        cases.add(new Case("embedded jwk header", "Bearer " + signedWithHeader("{\"alg\":\"RS256\",\"kid\":\"rsa-1\",\"jwk\":" + attackerJwk + "}",
                good().build(), attacker), 401));
        cases.add(new Case("jku header to another JWKS", "Bearer " + signedWithHeader(
                "{\"alg\":\"RS256\",\"kid\":\"rsa-1\",\"jku\":\"http://127.0.0.1:1/jwks\"}", good().build(), attacker), 401));
        cases.add(new Case("x5u header", "Bearer " + signedWithHeader(
                "{\"alg\":\"RS256\",\"kid\":\"rsa-1\",\"x5u\":\"http://127.0.0.1:1/cert\"}", good().build(), attacker), 401));
        cases.add(new Case("no kid, forged", "Bearer " + signedWithHeader("{\"alg\":\"RS256\"}", good().build(), attacker), 401));
        cases.add(new Case("crit header the server does not know", "Bearer " + signedWithHeader(
                "{\"alg\":\"RS256\",\"kid\":\"rsa-1\",\"crit\":[\"exp-policy\"],\"exp-policy\":1}", good().build(), rsa), 401));
        cases.add(new Case("ES256 header on the RSA key id", "Bearer " + b64("{\"alg\":\"ES256\",\"kid\":\"rsa-1\"}") + "." + parts[1]
                + "." + parts[2], 401));
        // Odd key ids.
        for (String kid : List.of("", "../../etc/passwd", "${jndi:ldap://127.0.0.1:1/a}", "rsa-1\u0000", "ｒｓａ-1", "k".repeat(4_000))) {
            cases.add(new Case("kid " + cut(kid), "Bearer " + signedWithHeader("{\"alg\":\"RS256\",\"kid\":\"" + kid.replace("\u0000", "\\u0000")
                    + "\"}", good().build(), attacker), 401));
        }
        // The right signature over claims of the wrong kind or value.
        Instant now = Instant.now();
        Map<String, String> claimCases = new LinkedHashMap<>();
        claimCases.put("exp as text", "\"exp\":\"" + now.plusSeconds(600).getEpochSecond() + "\"");
        claimCases.put("exp negative", "\"exp\":-1");
        claimCases.put("exp 1e308", "\"exp\":1e308");
        claimCases.put("exp null", "\"exp\":null");
        claimCases.put("nbf as text", "\"nbf\":\"now\"");
        claimCases.put("aud a number", "\"aud\":42");
        claimCases.put("aud empty", "\"aud\":[]");
        claimCases.put("aud in capitals", "\"aud\":\"RAGSEARCH\"");
        claimCases.put("aud another and none of ours", "\"aud\":[\"kubernetes\",\"other\"]");
        claimCases.put("iss an array", "\"iss\":[\"" + issuer.issuer() + "\"]");
        claimCases.put("iss with a trailing slash", "\"iss\":\"" + issuer.issuer() + "/\"");
        claimCases.put("sub an object", "\"sub\":{\"name\":\"system:serviceaccount:agents:hr\"}");
        claimCases.put("sub empty", "\"sub\":\"\"");
        for (Map.Entry<String, String> c : claimCases.entrySet()) {
            String key = c.getValue().substring(1, c.getValue().indexOf('"', 1));
            Map<String, Object> base = new LinkedHashMap<>(good().build().toJSONObject());
            base.remove(key);
            String json = com.nimbusds.jose.util.JSONObjectUtils.toJSONString(base);
            json = json.substring(0, json.length() - 1) + "," + c.getValue() + "}";
            cases.add(new Case(c.getKey(), "Bearer " + signedRaw("{\"alg\":\"RS256\",\"kid\":\"rsa-1\"}", json, rsa), 401));
        }
        // A numeric sub is read as its text (the JOSE library's reading): an identity no rule names.
        cases.add(new Case("sub a number", "Bearer " + signedRaw("{\"alg\":\"RS256\",\"kid\":\"rsa-1\"}",
                claims.replace("\"system:serviceaccount:agents:hr\"", "7"), rsa), 403));
        // Claims rewritten after signing: the signature no longer covers them.
        cases.add(new Case("payload swapped for another subject", "Bearer " + parts[0] + "."
                + b64(claims.replace("agents:hr", "agents:admin")) + "." + parts[2], 401));
        cases.add(new Case("expired an hour ago", "Bearer " + TestIssuer.sign(rsa, good().expirationTime(Date.from(now.minusSeconds(3600)))
                .build()), 401));
        cases.add(new Case("not before in an hour", "Bearer " + TestIssuer.sign(rsa, good().notBeforeTime(Date.from(now.plusSeconds(3600)))
                .build()), 401));
        cases.add(new Case("a ServiceAccount no rule names", "Bearer " + TestIssuer.sign(rsa,
                issuer.serviceAccount("agents", "intern", JwtAuthIT.AUDIENCE).build()), 403));
        cases.add(new Case("another namespace's hr", "Bearer " + TestIssuer.sign(rsa,
                issuer.serviceAccount("agents-x", "hr", JwtAuthIT.AUDIENCE).build()), 403));
        // Not a JWS at all.
        for (String t : List.of("x", ".", "..", "...", parts[0] + "." + parts[1], valid + ".extra", valid + "." + parts[2] + "." + parts[2],
                parts[0] + "." + parts[1] + ".!!!", "\uFEFF" + valid, valid.replace('.', ' '), "a".repeat(7_000), valid.repeat(5),
                b64("{}") + "." + b64("{}") + "." + b64("{}"), b64("[]") + "." + b64("[]") + "." + b64("x"),
                b64("{\"alg\":\"RS256\"}") + "." + b64("not json") + "." + parts[2], "%00", "eyJ" + "A".repeat(5000))) {
            cases.add(new Case("not a JWS: " + cut(t), "Bearer " + t, 401));
        }
        // Past Jetty's 8 KiB of headers: refused before any filter, 431 without a challenge.
        cases.add(new Case("a 20 KB token", "Bearer " + "a".repeat(20_000), 431));
        cases.add(new Case("a kid of 10,000 characters", "Bearer " + signedWithHeader("{\"alg\":\"RS256\",\"kid\":\"" + "k".repeat(10_000)
                + "\"}", good().build(), attacker), 431));
        // The right token in the wrong place.
        cases.add(new Case("Basic scheme", "Basic " + valid, 401));
        cases.add(new Case("token without a scheme", valid, 401));
        cases.add(new Case("Bearer with nothing after it", "Bearer ", 401));
        cases.add(new Case("two tokens", "Bearer " + valid + " " + valid, 401));
        cases.add(new Case("quoted", "Bearer \"" + valid + "\"", 401));
        return cases;
    }

    @TestFactory
    Stream<DynamicTest> everyBadTokenIsRefusedWithItsChallenge() throws Exception {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
    }

    private static void check(Case c) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>(TestServers.JSON_HEADERS);
        headers.put("Authorization", c.authorization());
        RawHttp.Response r = RawHttp.exchange(app.mcpPort(), "POST", "/mcp", headers, TestServers.INITIALIZE.getBytes(StandardCharsets.UTF_8));
        String challenge = r.headers().getOrDefault("www-authenticate", "");
        String where = c.name() + " → " + r.status() + " " + challenge + " " + cut(r.body());
        assertEquals(c.status(), r.status(), where);
        assertFalse(LEAK.matcher(r.body()).find(), "leak: " + where);
        if (c.status() == 431) {
            return;
        }
        assertTrue(challenge.startsWith("Bearer resource_metadata=\"http://127.0.0.1:" + app.mcpPort()
                + "/.well-known/oauth-protected-resource/mcp\""), where);
        String error = c.status() == 403 ? "insufficient_scope" : c.authorization().regionMatches(true, 0, "Bearer ", 0, 7)
                && !c.authorization().substring(7).isBlank() ? "invalid_token" : null;
        assertEquals(error != null, challenge.contains("error="), where);
        if (error != null) {
            assertTrue(challenge.contains("error=\"" + error + "\""), where);
        }
        assertTrue(r.body().contains("\"code\":-32001"), where);
        assertFalse(LEAK.matcher(r.body()).find() || LEAK.matcher(challenge).find(), "leak: " + where);
        String token = c.authorization().contains(" ") ? c.authorization().substring(c.authorization().indexOf(' ') + 1) : c.authorization();
        if (token.length() >= 8) {
            assertFalse(r.body().contains(token) || challenge.contains(token), "the token echoed: " + where);
        }
        assertEquals(200, RawHttp.exchange(app.adminPort(), "GET", "/livez", Map.of(), new byte[0]).status(), "livez after " + c.name());
    }

    private static String cut(String s) {
        String flat = s.replaceAll("\\p{Cntrl}", "?");
        return flat.length() <= 40 ? flat : flat.substring(0, 40) + "…";
    }
}
