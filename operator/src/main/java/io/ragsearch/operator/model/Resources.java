package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Resources {
    /** Kubernetes quantity syntax; checked again by the reconciler, which says what is wrong. */
    static final String QUANTITY = "^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$";

    @Required
    @Pattern(QUANTITY)
    @JsonPropertyDescription("Memory limit (and request) of each pod, e.g. 1500Mi.")
    public String memory;

    @Pattern(QUANTITY)
    @JsonPropertyDescription("CPU limit (and request) of each pod, e.g. 2. Absent: no CPU limit, no CPU cap on concurrency.")
    public String cpu;
}
