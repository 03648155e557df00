package io.ragsearch.auth;

import io.ragsearch.search.ProjectScope;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who may use which projects: a pure decision from a verified token's claims to a project scope.
 * Rules only grant (the union of every matching rule's projects); a caller no rule matches gets no
 * project. A Kubernetes ServiceAccount token carries no groups claim, so its implied groups
 * ({@code system:serviceaccounts}, {@code system:serviceaccounts:NS}) are derived from its subject,
 * as the API server derives them.
 */
public record AccessPolicy(List<AccessRule> rules, String groupsClaim) {

    static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    public AccessPolicy {
        rules = List.copyOf(rules);
    }

    /** The projects a caller with these claims may use (claims as the JWT library gives them: strings, lists, maps). */
    public ProjectScope scope(Map<String, Object> claims) {
        String subject = claims.get("sub") instanceof String s ? s : "";
        String[] account = serviceAccount(subject);
        Set<String> groups = strings(claims.get(groupsClaim));
        if (account != null) {
            groups.add("system:serviceaccounts");
            groups.add("system:serviceaccounts:" + account[0]);
        }
        Set<String> projects = new HashSet<>();
        for (AccessRule rule : rules) {
            if (matches(rule, subject, account, groups, claims)) {
                if (rule.allProjects()) {
                    return ProjectScope.ALL;
                }
                projects.addAll(rule.projects());
            }
        }
        return projects.isEmpty() ? ProjectScope.NONE : ProjectScope.of(projects);
    }

    private static boolean matches(AccessRule rule, String subject, String[] account, Set<String> groups, Map<String, Object> claims) {
        if (rule.subjects().contains(subject)) {
            return true;
        }
        if (account != null && (rule.serviceAccounts().contains(account[0] + ":" + account[1])
                || rule.serviceAccounts().contains(account[0] + ":*"))) {
            return true;
        }
        if (groups.stream().anyMatch(rule.groups()::contains)) {
            return true;
        }
        return rule.claims().entrySet().stream().anyMatch(e -> holds(claims.get(e.getKey()), e.getValue()));
    }

    /** {namespace, name} of a ServiceAccount token's subject {@code system:serviceaccount:NS:NAME}; null for any other subject. */
    private static String[] serviceAccount(String subject) {
        if (!subject.startsWith(SERVICE_ACCOUNT_PREFIX)) {
            return null;
        }
        String[] parts = subject.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
        return parts.length == 2 && !parts[0].isEmpty() && !parts[1].isEmpty() ? parts : null;
    }

    /** A claim that is one string or an array of them, as a set (anything else: empty). */
    static Set<String> strings(Object claim) {
        Set<String> out = new HashSet<>();
        if (claim instanceof String s) {
            out.add(s);
        } else if (claim instanceof Collection<?> c) {
            c.stream().filter(String.class::isInstance).map(String.class::cast).forEach(out::add);
        }
        return out;
    }

    /** A claim holds a value when it is that string (or number/boolean written so), or an array with it. */
    private static boolean holds(Object claim, List<String> values) {
        if (claim instanceof Collection<?> c) {
            return c.stream().anyMatch(v -> v != null && values.contains(String.valueOf(v)));
        }
        return claim != null && !(claim instanceof Map) && values.contains(String.valueOf(claim));
    }
}
