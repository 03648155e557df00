package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * Checks a new version answers correctly before it serves: a candidate pod runs the checks file
 * (docs/verify.md) against itself with a running pod as baseline; only a pass promotes it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VerificationSpec {
    @Required
    @Size(max = SchemaBounds.OBJECT_NAME)
    @JsonPropertyDescription("ConfigMap in the RagSearch's namespace holding the checks file.")
    public String configMap;

    @Size(max = SchemaBounds.OBJECT_NAME)
    @Pattern("^[-._a-zA-Z0-9]+$")
    @JsonPropertyDescription("Key of the checks file in the ConfigMap (default checks.yaml).")
    public String key;

    @Min(SchemaBounds.VERIFICATION_TIMEOUT_MIN_SECONDS)
    @Max(SchemaBounds.VERIFICATION_TIMEOUT_MAX_SECONDS)
    @JsonPropertyDescription("Time from the spec change to a finished verification (candidate start-up included) before "
            + "the new version is held back (default 900).")
    public Integer timeoutSeconds;
}
