package io.ragsearch.auth;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.JSONObjectUtils;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.text.ParseException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Reads the issuer's public keys over HTTP: the JWKS URL as configured, or the one the issuer's
 * OIDC discovery document names; with the configured CA bundle and bearer token (what the
 * Kubernetes API server's endpoints want). Only public keys are kept.
 */
final class JwksFetcher {

    /** A JWKS is a few keys; a megabyte is far beyond any real one and bounds what a bad server can make us hold. */
    static final int MAX_BYTES = 1 << 20;
    /** Each request's whole budget: a key fetch that hangs must not hold a caller for long. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final String DISCOVERY_PATH = "/.well-known/openid-configuration";

    private final JwtSettings settings;
    private final HttpClient http;

    JwksFetcher(JwtSettings settings) {
        this.settings = settings;
        this.http = client(settings.caFile());
    }

    JWKSet fetch() throws IOException {
        URI jwks = settings.jwksUrl().isPresent() ? settings.jwksUrl().get() : discover();
        try {
            return JWKSet.parse(get(jwks)).toPublicJWKSet();
        } catch (ParseException e) {
            throw new IOException(jwks + " is not a JWKS: " + e.getMessage());
        }
    }

    /** The issuer's discovery document's jwks_uri (OpenID Connect Discovery 1.0, section 4). */
    private URI discover() throws IOException {
        String issuer = settings.issuer().endsWith("/") ? settings.issuer().substring(0, settings.issuer().length() - 1)
                : settings.issuer();
        URI doc = URI.create(issuer + DISCOVERY_PATH);
        Map<String, Object> json;
        try {
            json = JSONObjectUtils.parse(get(doc));
        } catch (ParseException e) {
            throw new IOException(doc + " is not a JSON object: " + e.getMessage());
        }
        if (!settings.issuer().equals(json.get("issuer")) || !(json.get("jwks_uri") instanceof String uri)) {
            throw new IOException(doc + " does not name this issuer with a jwks_uri");
        }
        return URI.create(uri);
    }

    private String get(URI uri) throws IOException {
        // The Kubernetes API server serves its JWKS only as application/jwk-set+json (406 to an
        // Accept of application/json alone, found on the test plane); discovery documents are application/json.
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "application/jwk-set+json, application/json");
        Optional<String> bearer = bearer();
        bearer.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        HttpResponse<InputStream> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + uri);
        }
        try (InputStream body = response.body()) {
            byte[] bytes = body.readNBytes(MAX_BYTES + 1);
            if (response.statusCode() != 200) {
                throw new IOException(uri + " answered HTTP " + response.statusCode()
                        + (response.statusCode() == 401 || response.statusCode() == 403
                        ? (bearer.isPresent() ? " to the token of auth.tokenFile" : " (it may want auth.tokenFile)") : ""));
            }
            if (bytes.length > MAX_BYTES) {
                throw new IOException(uri + " answered more than " + MAX_BYTES + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private Optional<String> bearer() throws IOException {
        if (settings.tokenFile().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Files.readString(settings.tokenFile().get()).strip());
    }

    private static HttpClient client(Optional<Path> caFile) {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER);
        caFile.ifPresent(ca -> b.sslContext(trusting(ca)));
        return b.build();
    }

    /** An SSL context that trusts the certificates of this PEM bundle and nothing else. */
    private static SSLContext trusting(Path bundle) {
        try (InputStream in = Files.newInputStream(bundle)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("ca-" + i++, c);
            }
            if (i == 0) {
                throw new AuthConfigException("auth.caFile " + bundle + " holds no certificate");
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl;
        } catch (IOException | GeneralSecurityException e) {
            throw new AuthConfigException("auth.caFile " + bundle + " cannot be read as PEM certificates: " + e.getMessage());
        }
    }

    /** A configuration that cannot work at all (unlike keys that cannot be fetched now): startup stops. */
    static final class AuthConfigException extends RuntimeException {
        AuthConfigException(String message) {
            super(message);
        }
    }
}
