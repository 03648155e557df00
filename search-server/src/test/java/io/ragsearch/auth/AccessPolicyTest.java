package io.ragsearch.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.search.ProjectScope;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AccessPolicyTest {

    private static AccessRule rule(Set<String> projects, Set<String> sas, Set<String> groups, Set<String> subjects,
                                   Map<String, List<String>> claims) {
        return new AccessRule(projects, sas, groups, subjects, claims);
    }

    private static final AccessPolicy POLICY = new AccessPolicy(List.of(
            rule(Set.of("hr"), Set.of("agents:hr-bot"), Set.of(), Set.of(), Map.of()),
            rule(Set.of("security"), Set.of("secops:*"), Set.of(), Set.of(), Map.of()),
            rule(Set.of("handbook"), Set.of(), Set.of("system:serviceaccounts:agents", "staff"), Set.of(), Map.of()),
            rule(Set.of("finance"), Set.of(), Set.of(), Set.of("alice@example.com"), Map.of("department", List.of("finance"))),
            rule(Set.of("*"), Set.of(), Set.of("admins"), Set.of(), Map.of())), "groups");

    private static ProjectScope scope(Map<String, Object> claims) {
        return POLICY.scope(claims);
    }

    @Test
    void aServiceAccountGetsItsRulesAndItsNamespacesImpliedGroup() {
        ProjectScope hrBot = scope(Map.of("sub", "system:serviceaccount:agents:hr-bot"));
        assertTrue(hrBot.allows("hr") && hrBot.allows("handbook"));
        assertFalse(hrBot.allows("security") || hrBot.allows("finance"));

        ProjectScope other = scope(Map.of("sub", "system:serviceaccount:agents:someone"));
        assertTrue(other.allows("handbook"));
        assertFalse(other.allows("hr"), "namespace group, not the named account");
        assertTrue(scope(Map.of("sub", "system:serviceaccount:secops:scanner")).allows("security"), "namespace:* rule");
    }

    @Test
    void aNameThatOnlyLooksLikeAServiceAccountMatchesNothing() {
        assertSame(ProjectScope.NONE, scope(Map.of("sub", "agents:hr-bot")));
        assertSame(ProjectScope.NONE, scope(Map.of("sub", "system:serviceaccount:agents")));
        assertSame(ProjectScope.NONE, scope(Map.of("sub", "system:serviceaccount:agentsx:hr-bot")));
        assertSame(ProjectScope.NONE, scope(Map.of()));
    }

    @Test
    void groupsSubjectsAndClaimsGrantTheirProjects() {
        assertTrue(scope(Map.of("sub", "bob", "groups", List.of("staff"))).allows("handbook"));
        assertTrue(scope(Map.of("sub", "bob", "groups", "staff")).allows("handbook"), "a single group as a string");
        assertTrue(scope(Map.of("sub", "alice@example.com")).allows("finance"));
        assertTrue(scope(Map.of("sub", "carol", "department", "finance")).allows("finance"));
        assertTrue(scope(Map.of("sub", "carol", "department", List.of("legal", "finance"))).allows("finance"));
        assertSame(ProjectScope.NONE, scope(Map.of("sub", "carol", "department", Map.of("name", "finance"))));
        ProjectScope admin = scope(Map.of("sub", "root", "groups", List.of("admins")));
        assertTrue(admin.allows("anything-at-all"));
    }
}
