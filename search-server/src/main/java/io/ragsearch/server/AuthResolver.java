package io.ragsearch.server;

import io.ragsearch.auth.AccessPolicy;
import io.ragsearch.auth.AccessRule;
import io.ragsearch.auth.JwtSettings;
import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.Environment;
import io.ragsearch.contract.settings.Bounds;
import io.ragsearch.contract.settings.ServerSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ArrayList;

/**
 * The configuration's {@code auth} section (already checked by the contract's rules) as the JWT
 * checks of /mcp. Mode static needs RAGSEARCH_AUTH_TOKEN; mode jwt must not be given one as well
 * (two ways in, one of them a shared secret, is not what a platform team asked for).
 */
final class AuthResolver {

    private AuthResolver() {
    }

    static Optional<JwtSettings> jwt(ServerSettings.Auth auth, ServerEnvironment env) {
        if (auth == null) {
            return Optional.empty();
        }
        String mode = auth.mode().toLowerCase(Locale.ROOT);
        if (mode.equals("static")) {
            if (env.bearerToken() == null) {
                throw new ConfigException("auth.mode static needs the token in " + Environment.AUTH_TOKEN);
            }
            return Optional.empty();
        }
        if (env.bearerToken() != null) {
            throw new ConfigException("auth.mode jwt and " + Environment.AUTH_TOKEN + " are both set: unset the static token "
                    + "(with jwt every caller is identified by its own token)");
        }
        List<AccessRule> rules = new ArrayList<>();
        for (ServerSettings.Access a : auth.access()) {
            Map<String, List<String>> claims = new LinkedHashMap<>();
            if (a.claims() != null) {
                a.claims().forEach(c -> claims.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(c.value()));
            }
            rules.add(new AccessRule(new HashSet<>(a.projects()), set(a.serviceAccounts()), set(a.groups()), set(a.subjects()), claims));
        }
        return Optional.of(new JwtSettings(auth.issuer(), new HashSet<>(auth.audiences()),
                Optional.ofNullable(auth.jwksUrl()).map(URI::create), Optional.ofNullable(auth.caFile()).map(Path::of),
                Optional.ofNullable(auth.tokenFile()).map(Path::of),
                new HashSet<>(auth.algorithms() == null ? Bounds.JWT_ALGORITHMS : auth.algorithms()),
                auth.clockSkewSeconds() == null ? JwtSettings.DEFAULT_CLOCK_SKEW : Duration.ofSeconds(auth.clockSkewSeconds()),
                auth.scopes() == null ? List.of() : auth.scopes(), Optional.ofNullable(auth.resource()),
                new AccessPolicy(rules, auth.groupsClaim() == null ? JwtSettings.DEFAULT_GROUPS_CLAIM : auth.groupsClaim())));
    }

    private static HashSet<String> set(List<String> values) {
        return values == null ? new HashSet<>() : new HashSet<>(values);
    }
}
