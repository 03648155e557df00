package io.ragsearch.operator.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Map;

/**
 * Who may reach the MCP port. The admin port stays open to the operator's pods (it reads
 * /calibration there); the kubelet's probes are not subject to NetworkPolicy.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class NetworkAccess {
    @JsonPropertyDescription("Labels of client pods allowed to call MCP (default: every pod of the namespace).")
    public Map<String, String> clientPodLabels;

    @JsonPropertyDescription("Labels of other namespaces whose pods (matching clientPodLabels) may call MCP.")
    public Map<String, String> clientNamespaceLabels;
}
