package io.ragsearch.operator.crd;

import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.operator.model.SchemaBounds;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finishes the CRD fabric8's generator writes, with what its annotations cannot say: list-map
 * keys (the API server enforces unique project names, no quadratic CEL rule), the standard
 * condition schema, bounds on maps and on the embedded Kubernetes types, and printer columns in
 * the usual order (the generator sorts them by JSON path). Runs at process-classes, before the
 * build compares the result with the committed copies.
 */
public final class CrdFinisher {
    /** kubectl's usual order: status columns first, Age last. */
    static final List<String> COLUMN_ORDER = List.of("Ready", "Replicas", "Concurrency", "Verified", "Age");
    /**
     * Embedded Kubernetes types: their schema comes from the Kubernetes model, whose strings and
     * lists carry no bounds. Generous ones here (a node affinity with 32 terms is already
     * unusual); the API server validates the values again when the operator writes the pods.
     */
    static final List<String> EMBEDDED = List.of("tolerations", "affinity", "topologySpreadConstraints", "imagePullSecrets");
    static final long EMBEDDED_STRING = 1024;

    private CrdFinisher() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        CustomResourceDefinition crd = Serialization.unmarshal(Files.readString(file), CustomResourceDefinition.class);
        finish(crd);
        Files.writeString(file, "# Generated from the operator's Java model (fabric8 CRD generator, then CrdFinisher): do not edit.\n"
                + Serialization.asYaml(crd).replaceFirst("^---\n", ""), StandardCharsets.UTF_8);
    }

    static void finish(CustomResourceDefinition crd) {
        for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
            v.getAdditionalPrinterColumns().sort(Comparator.comparingInt(
                    (CustomResourceColumnDefinition c) -> COLUMN_ORDER.indexOf(c.getName())));
            JSONSchemaProps root = v.getSchema().getOpenAPIV3Schema();
            JSONSchemaProps spec = root.getProperties().get("spec");
            JSONSchemaProps projects = spec.getProperties().get("projects");
            projects.setXKubernetesListType("map");
            projects.setXKubernetesListMapKeys(List.of("name"));

            property(spec, "rerank", "concurrency").setMaxLength(8L);
            JSONSchemaProps network = spec.getProperties().get("networkPolicy");
            boundMap(network.getProperties().get("clientPodLabels"), SchemaBounds.LABEL_VALUE);
            boundMap(network.getProperties().get("clientNamespaceLabels"), SchemaBounds.LABEL_VALUE);
            JSONSchemaProps pod = spec.getProperties().get("pod");
            boundMap(pod.getProperties().get("nodeSelector"), SchemaBounds.LABEL_VALUE);
            boundMap(pod.getProperties().get("labels"), SchemaBounds.LABEL_VALUE);
            boundMap(pod.getProperties().get("annotations"), SchemaBounds.ANNOTATION_VALUE);
            for (String embedded : EMBEDDED) {
                boundEverything(pod.getProperties().get(embedded));
            }

            JSONSchemaProps status = root.getProperties().get("status");
            JSONSchemaProps conditions = status.getProperties().get("conditions");
            conditions.getItems().setSchema(condition());
            conditions.setXKubernetesListType("map");
            conditions.setXKubernetesListMapKeys(List.of("type"));
        }
    }

    private static JSONSchemaProps property(JSONSchemaProps node, String... path) {
        JSONSchemaProps at = node;
        for (String p : path) {
            at = at.getProperties().get(p);
        }
        return at;
    }

    private static void boundMap(JSONSchemaProps map, long valueLength) {
        map.setMaxProperties((long) SchemaBounds.MAP_ENTRIES);
        map.getAdditionalProperties().getSchema().setMaxLength(valueLength);
    }

    /** Bounds every string, list and map below the node that has none yet. */
    static void boundEverything(JSONSchemaProps node) {
        if (node == null) {
            return;
        }
        if ("string".equals(node.getType()) && node.getMaxLength() == null && node.getEnum() == null) {
            node.setMaxLength(EMBEDDED_STRING);
        }
        if (Boolean.TRUE.equals(node.getXKubernetesIntOrString()) && node.getMaxLength() == null) {
            node.setMaxLength(EMBEDDED_STRING);
        }
        if ("array".equals(node.getType())) {
            if (node.getMaxItems() == null) {
                node.setMaxItems((long) SchemaBounds.POD_LIST);
            }
            boundEverything(node.getItems().getSchema());
        }
        if (node.getAdditionalProperties() != null && node.getAdditionalProperties().getSchema() != null) {
            if (node.getMaxProperties() == null) {
                node.setMaxProperties((long) SchemaBounds.MAP_ENTRIES);
            }
            boundEverything(node.getAdditionalProperties().getSchema());
        }
        if (node.getProperties() != null) {
            node.getProperties().values().forEach(CrdFinisher::boundEverything);
        }
    }

    /** The schema every Kubernetes API uses for metav1.Condition, bounds included. */
    static JSONSchemaProps condition() {
        return new JSONSchemaPropsBuilder()
                .withType("object")
                .withRequired("type", "status", "lastTransitionTime", "reason", "message")
                .withProperties(new TreeMap<>(Map.of(
                        "type", new JSONSchemaPropsBuilder().withType("string").withMaxLength(316L)
                                .withPattern("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$")
                                .withDescription("Ready, Calibrated, MemoryInsufficient, ConcurrencyClamped, InvalidSpec.").build(),
                        "status", new JSONSchemaPropsBuilder().withType("string")
                                .withEnum(List.of(new TextNode("True"),
                                        new TextNode("False"),
                                        new TextNode("Unknown"))).build(),
                        "observedGeneration", new JSONSchemaPropsBuilder().withType("integer").withFormat("int64")
                                .withMinimum(0.0).build(),
                        "lastTransitionTime", new JSONSchemaPropsBuilder().withType("string").withFormat("date-time").build(),
                        "reason", new JSONSchemaPropsBuilder().withType("string").withMinLength(1L).withMaxLength(1024L)
                                .withPattern("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$").build(),
                        "message", new JSONSchemaPropsBuilder().withType("string").withMaxLength(32768L).build())))
                .build();
    }
}
