package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Where the server pods send their traces (docs/telemetry.md); absent: no traces leave the pods. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Telemetry {

    @Required
    @Pattern("^https?://.+")
    @Size(max = SchemaBounds.URL)
    @JsonPropertyDescription("OTLP/HTTP base address of the collector (e.g. http://otel-collector.observability:4318), set as "
            + "OTEL_EXPORTER_OTLP_ENDPOINT with OTEL_SERVICE_NAME the RagSearch's name; traces of tool calls and searches go there.")
    public String otlpEndpoint;
}
