package io.ragsearch.auth;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One access rule: callers matching any of its identities may use its projects ("*": all).
 *
 * @param serviceAccounts "namespace:name" or "namespace:*", matched against a Kubernetes
 *                        ServiceAccount token's subject {@code system:serviceaccount:NS:NAME}
 * @param claims          claim name → values; a claim matches when it equals one, or is an array holding one
 */
public record AccessRule(Set<String> projects, Set<String> serviceAccounts, Set<String> groups, Set<String> subjects,
                         Map<String, List<String>> claims) {

    public AccessRule {
        projects = Set.copyOf(projects);
        serviceAccounts = Set.copyOf(serviceAccounts);
        groups = Set.copyOf(groups);
        subjects = Set.copyOf(subjects);
        claims = Map.copyOf(claims);
    }

    public boolean allProjects() {
        return projects.contains("*");
    }
}
