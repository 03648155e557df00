package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.ragsearch.contract.settings.Bounds;

import java.util.List;

/** One access rule of spec.auth: the projects callers matching any of its identities may use. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "[has(self.serviceAccounts), has(self.groups), has(self.subjects), has(self.claims)].exists(x, x)",
        message = "name somebody: serviceAccounts, groups, subjects or claims")
public class AccessRule {

    @Required
    @Size(min = 1, max = SchemaBounds.PROJECTS)
    @JsonPropertyDescription("Project names, or \"*\" for every project.")
    public List<@Pattern("^(\\*|[a-z0-9][a-z0-9._-]{0,62})$") String> projects;

    @Size(max = SchemaBounds.AUTH_LIST)
    @JsonPropertyDescription("ServiceAccounts as namespace:name, or namespace:* for all of a namespace.")
    public List<@Pattern(Bounds.SERVICE_ACCOUNT_REGEX) String> serviceAccounts;

    @Size(max = SchemaBounds.AUTH_LIST)
    @JsonPropertyDescription("Groups (the token's groups claim; a ServiceAccount is in system:serviceaccounts and system:serviceaccounts:NS).")
    public List<@Size(min = 1, max = SchemaBounds.OBJECT_NAME) String> groups;

    @Size(max = SchemaBounds.AUTH_LIST)
    @JsonPropertyDescription("Subjects: the token's sub, exactly.")
    public List<@Size(min = 1, max = SchemaBounds.OBJECT_NAME) String> subjects;

    @Size(max = SchemaBounds.AUTH_LIST)
    @JsonPropertyDescription("Claims: a top-level claim equal to value, or an array holding it.")
    public List<ClaimMatch> claims;

    /** A claim and a value it must hold. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class ClaimMatch {
        @Required
        @Size(min = 1, max = SchemaBounds.OBJECT_NAME)
        public String name;

        @Required
        @Size(max = SchemaBounds.OBJECT_NAME)
        public String value;
    }
}
