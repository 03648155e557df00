package io.ragsearch.operator.spec;

import io.ragsearch.operator.model.Auth;
import io.ragsearch.operator.model.Database;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.model.SecretKeys;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/** spec.database and spec.auth: a Secret named, and (with a lookup) present with the keys the pod reads. */
final class SecretCheck {
    private SecretCheck() {
    }

    static void check(RagSearchSpec spec, String namespace, ReferenceLookup lookup, List<String> problems) {
        if (spec.database != null) {
            secret("spec.database.secretRef", spec.database.secretRef, namespace,
                    List.of(Database.URL_KEY, Database.USER_KEY, Database.PASSWORD_KEY), lookup, problems);
        }
        if (spec.auth != null && spec.auth.bearerTokenSecretRef != null) {
            secret("spec.auth.bearerTokenSecretRef", spec.auth.bearerTokenSecretRef, namespace,
                    List.of(Auth.TOKEN_KEY), lookup, problems);
        }
    }

    private static void secret(String at, SecretKeys ref, String namespace, List<String> keys, ReferenceLookup lookup,
                               List<String> problems) {
        if (ref == null || ref.name == null || ref.name.isBlank()) {
            problems.add(at + ".name is required");
            return;
        }
        if (lookup == null) {
            return;
        }
        Optional<Set<String>> present = lookup.secretKeys(namespace, ref.name);
        if (present.isEmpty()) {
            problems.add(at + ": secret '" + ref.name + "' not found in namespace " + namespace);
            return;
        }
        List<String> missing = keys.stream().filter(k -> !present.get().contains(k)).toList();
        if (!missing.isEmpty()) {
            problems.add(at + ": secret '" + ref.name + "' lacks key(s) " + String.join(", ", missing));
        }
    }
}
