package io.ragsearch.operator.spec;

import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.model.Auth;

import java.util.List;

/**
 * spec.auth: static needs its Secret; jwt is checked by the server's own rules on the section the
 * operator would render (so render refuses what the server would), and takes no Secret.
 */
final class AuthCheck {
    private AuthCheck() {
    }

    static void check(Auth auth, List<String> problems) {
        if (auth == null) {
            return;
        }
        boolean jwt = "jwt".equals(auth.mode);
        if (!jwt) {
            if (auth.mode != null && !"static".equals(auth.mode)) {
                problems.add("spec.auth.mode must be static or jwt (got '" + auth.mode + "')");
                return;
            }
            if (auth.bearerTokenSecretRef == null) {
                problems.add("spec.auth.bearerTokenSecretRef is required with mode static (the default)");
            }
            if (auth.issuer != null || auth.audiences != null || auth.access != null || auth.jwksUrl != null
                    || auth.kubernetesKeys != null) {
                problems.add("spec.auth: issuer, audiences, jwksUrl, kubernetesKeys and access belong to mode jwt");
            }
            return;
        }
        if (auth.bearerTokenSecretRef != null) {
            problems.add("spec.auth.bearerTokenSecretRef belongs to mode static: with jwt each caller brings its own token");
        }
        SettingsRules.authProblems(AuthSection.of(auth)).forEach(p -> problems.add("spec." + p));
    }
}
