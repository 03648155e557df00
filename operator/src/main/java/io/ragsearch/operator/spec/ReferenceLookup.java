package io.ragsearch.operator.spec;

import java.util.Optional;
import java.util.Set;

/** What the spec refers to in its namespace: Secrets (with their keys), ConfigMaps, claims. */
public interface ReferenceLookup {

    /** The keys of the Secret, or empty when it does not exist. */
    Optional<Set<String>> secretKeys(String namespace, String name);

    boolean configMapExists(String namespace, String name);

    boolean claimExists(String namespace, String name);
}
