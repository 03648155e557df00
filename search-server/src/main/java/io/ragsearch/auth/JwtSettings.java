package io.ragsearch.auth;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How this server checks JWTs (the configuration's {@code auth} section in mode jwt, resolved).
 *
 * @param jwksUrl    where the keys are; empty: the issuer's OIDC discovery document names it
 * @param caFile     the CA bundle that signs the JWKS server's certificate (the Kubernetes API
 *                   server's: the pod's ServiceAccount ca.crt); empty: the JVM's trust store
 * @param tokenFile  a bearer token sent with the JWKS (and discovery) requests, read anew each time
 *                   (a projected token rotates); the API server's JWKS endpoint wants one unless
 *                   anonymous discovery is allowed
 * @param scopes     scopes every token must carry in its {@code scope} (or {@code scp}) claim; empty: none
 * @param resource   this server's resource identifier for the protected resource metadata; empty:
 *                   the URL the request was made to
 */
public record JwtSettings(String issuer, Set<String> audiences, Optional<URI> jwksUrl, Optional<Path> caFile,
                          Optional<Path> tokenFile, Set<String> algorithms, Duration clockSkew, List<String> scopes,
                          Optional<String> resource, AccessPolicy access) {

    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);
    public static final String DEFAULT_GROUPS_CLAIM = "groups";

    public JwtSettings {
        audiences = Set.copyOf(audiences);
        algorithms = Set.copyOf(algorithms);
        scopes = List.copyOf(scopes);
    }
}
