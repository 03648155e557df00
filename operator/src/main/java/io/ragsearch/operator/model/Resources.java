package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.IntOrString;

/**
 * Quantities are int-or-string in the schema, as in core Kubernetes (`cpu: 2` unquoted is a
 * number), and kept as text here ({@link QuantityText}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Resources {
    /**
     * Kubernetes' quantity grammar, non-negative: digits with an optional fraction, then a binary
     * suffix (Ki..Ei), a decimal one (n, u, m, k, M..E) or an exponent (1e9, 5E-3). Ranges are
     * checked by the reconciler, which names the field and the range.
     */
    public static final String QUANTITY = "^\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$";

    @Required
    @SchemaFrom(type = IntOrString.class)
    @JsonDeserialize(using = QuantityText.class)
    @Pattern(QUANTITY)
    @Size(max = SchemaBounds.QUANTITY)
    @JsonPropertyDescription("Memory limit (and request) of each pod, e.g. 1500Mi.")
    public String memory;

    @SchemaFrom(type = IntOrString.class)
    @JsonDeserialize(using = QuantityText.class)
    @Pattern(QUANTITY)
    @Size(max = SchemaBounds.QUANTITY)
    @JsonPropertyDescription("CPU limit (and request) of each pod, e.g. 2 or 500m. Absent: no CPU limit, and the concurrency's CPU term is 8.")
    public String cpu;

    @SchemaFrom(type = IntOrString.class)
    @JsonDeserialize(using = QuantityText.class)
    @Pattern(QUANTITY)
    @Size(max = SchemaBounds.QUANTITY)
    @JsonPropertyDescription("JVM heap of each pod (-Xmx). Default: a sixth of the memory limit, 192Mi to 4Gi "
            + "(the corpus and index live there; rerank runs in native memory). Raise it for large database corpora.")
    public String heap;

    @SchemaFrom(type = IntOrString.class)
    @JsonDeserialize(using = QuantityText.class)
    @Pattern(QUANTITY)
    @Size(max = SchemaBounds.QUANTITY)
    @JsonPropertyDescription("Size limit of the writable /tmp (tokenizer and ONNX Runtime native parts, the "
            + "built-in model's file); requested as ephemeral storage (default 1Gi).")
    public String tmpSize;

    @SchemaFrom(type = IntOrString.class)
    @JsonDeserialize(using = QuantityText.class)
    @Pattern(QUANTITY)
    @Size(max = SchemaBounds.QUANTITY)
    @JsonPropertyDescription("Size limit of /models when url models are fetched into it; requested as ephemeral "
            + "storage (default 4Gi).")
    public String modelsSize;
}
