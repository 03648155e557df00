package io.ragsearch.search;

import java.util.Set;
import java.util.function.Predicate;

/**
 * Which projects a caller may use. A project outside the scope is, for that caller, a project that
 * does not exist: it is not listed, and naming it gets the unknown-project answer, listing only the
 * projects in scope, so a refusal never tells whether another project exists.
 */
public record ProjectScope(Predicate<String> allows) {

    /** Every project: no authentication, the static token, stdio. */
    public static final ProjectScope ALL = new ProjectScope(name -> true);
    /** No project at all. */
    public static final ProjectScope NONE = new ProjectScope(name -> false);

    /** Exactly these projects. */
    public static ProjectScope of(Set<String> names) {
        Set<String> copy = Set.copyOf(names);
        return new ProjectScope(copy::contains);
    }

    public boolean allows(String project) {
        return allows.test(project);
    }
}
