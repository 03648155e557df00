package io.ragsearch.operator.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a real API server needs of the CRD that the mock server never checks: structural bounds
 * everywhere (the CEL rules' cost is judged by the real server itself, in RealCrdIT). Runs on the
 * committed CRD (the build fails when it differs from the generated one).
 */
class CrdSchemaTest {
    static final Path CRD = Path.of("../crds/ragsearches.ragsearch.io-v1.yml");

    static JSONSchemaProps schema() throws IOException {
        CustomResourceDefinition crd = Serialization.unmarshal(Files.readString(CRD), CustomResourceDefinition.class);
        return crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
    }

    @Test
    void noListMapOrStringIsUnbounded() throws IOException {
        List<String> unbounded = new ArrayList<>();
        walk("", schema(), unbounded);
        assertEquals(List.of(), unbounded);
    }

    static void walk(String path, JSONSchemaProps n, List<String> unbounded) {
        if (n == null) {
            return;
        }
        boolean intOrString = Boolean.TRUE.equals(n.getXKubernetesIntOrString());
        boolean fixedForm = n.getEnum() != null || "date-time".equals(n.getFormat());
        if (("string".equals(n.getType()) || intOrString) && n.getMaxLength() == null && !fixedForm) {
            unbounded.add(path + " (string without maxLength)");
        }
        if ("array".equals(n.getType())) {
            if (n.getMaxItems() == null) {
                unbounded.add(path + " (list without maxItems)");
            }
            walk(path + "[]", n.getItems().getSchema(), unbounded);
        }
        if (n.getAdditionalProperties() != null && n.getAdditionalProperties().getSchema() != null) {
            if (n.getMaxProperties() == null) {
                unbounded.add(path + " (map without maxProperties)");
            }
            walk(path + "{}", n.getAdditionalProperties().getSchema(), unbounded);
        }
        if (Boolean.TRUE.equals(n.getXKubernetesPreserveUnknownFields())) {
            unbounded.add(path + " (preserves unknown fields)");
        }
        if (n.getProperties() != null) {
            n.getProperties().forEach((k, v) -> walk(path + "." + k, v, unbounded));
        }
    }

    @Test
    void uniqueKeysQuantitiesColumnsAndCategory() throws IOException {
        CustomResourceDefinition crd = Serialization.unmarshal(Files.readString(CRD), CustomResourceDefinition.class);
        JSONSchemaProps root = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
        JSONSchemaProps projects = root.getProperties().get("spec").getProperties().get("projects");
        assertEquals("map", projects.getXKubernetesListType());
        assertEquals(List.of("name"), projects.getXKubernetesListMapKeys());
        assertTrue(projects.getItems().getSchema().getRequired().contains("name"), "a list-map key must be required");
        JSONSchemaProps conditions = root.getProperties().get("status").getProperties().get("conditions");
        assertEquals("map", conditions.getXKubernetesListType());
        assertEquals(List.of("type"), conditions.getXKubernetesListMapKeys());
        assertEquals(List.of("type", "status", "lastTransitionTime", "reason", "message"),
                conditions.getItems().getSchema().getRequired());
        JSONSchemaProps memory = root.getProperties().get("spec").getProperties().get("resources").getProperties().get("memory");
        assertEquals(Boolean.TRUE, memory.getXKubernetesIntOrString());
        assertEquals(List.of("Ready", "Replicas", "Concurrency", "Verified", "Age"), crd.getSpec().getVersions().get(0)
                .getAdditionalPrinterColumns().stream().map(CustomResourceColumnDefinition::getName).toList());
        assertEquals(List.of("ragsearch"), crd.getSpec().getNames().getCategories());
    }

    /**
     * Upgrading replaces the CRD (crds/README.md: Helm never does): fields of the previous release
     * must all still exist, or the API server would prune them from stored objects, and list-map
     * keys must have been required, or existing objects would not fit the new list type.
     */
    @Test
    void upgradingFromThePreviousReleaseLosesNoField() throws IOException {
        JSONSchemaProps previous;
        try (var in = CrdSchemaTest.class.getResourceAsStream("/crd/ragsearches-0.1.0.yml")) {
            previous = Serialization.unmarshal(in, CustomResourceDefinition.class)
                    .getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
        }
        List<String> before = new ArrayList<>();
        paths("", previous, before);
        List<String> now = new ArrayList<>();
        paths("", schema(), now);
        List<String> lost = before.stream().filter(p -> !now.contains(p)).toList();
        assertEquals(List.of(), lost, "fields the upgrade would prune");
        assertTrue(previous.getProperties().get("spec").getProperties().get("projects").getItems().getSchema()
                .getRequired().contains("name"), "every stored project has the new list key");
    }

    static void paths(String path, JSONSchemaProps n, List<String> out) {
        if (n == null) {
            return;
        }
        out.add(path);
        if (n.getProperties() != null) {
            n.getProperties().forEach((k, v) -> paths(path + "." + k, v, out));
        }
        if (n.getItems() != null) {
            paths(path + "[]", n.getItems().getSchema(), out);
        }
    }
}
