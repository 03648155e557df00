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
 * What a real API server checks when the CRD is written, and the mock server does not: every
 * rule's estimated cost inside the budget, structural bounds everywhere. Runs on the committed
 * CRD (the build fails when it differs from the generated one).
 */
class CrdSchemaTest {
    static final Path CRD = Path.of("../crds/ragsearches.ragsearch.io-v1.yml");

    /** A rule where it sits: its path, the schema it runs on, and how often it may run. */
    record PlacedRule(String path, String rule, JSONSchemaProps self, long cardinality) {
    }

    static JSONSchemaProps schema() throws IOException {
        CustomResourceDefinition crd = Serialization.unmarshal(Files.readString(CRD), CustomResourceDefinition.class);
        return crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
    }

    static void collect(String path, JSONSchemaProps node, long cardinality, List<PlacedRule> out) {
        if (node == null) {
            return;
        }
        for (ValidationRule r : node.getXKubernetesValidations() == null ? List.<ValidationRule>of() : node.getXKubernetesValidations()) {
            out.add(new PlacedRule(path, r.getRule(), node, cardinality));
        }
        if (node.getProperties() != null) {
            node.getProperties().forEach((name, child) -> collect(path + "." + name, child, cardinality, out));
        }
        if (node.getItems() != null) {
            collect(path + "[]", node.getItems().getSchema(), Math.multiplyExact(cardinality,
                    CelCostEstimate.Shape.of(node).maxSize()), out);
        }
        if (node.getAdditionalProperties() != null && node.getAdditionalProperties().getSchema() != null) {
            long entries = node.getMaxProperties() == null ? CelCostEstimate.MAX_REQUEST_BYTES / 4 : node.getMaxProperties();
            collect(path + "{}", node.getAdditionalProperties().getSchema(), Math.multiplyExact(cardinality, entries), out);
        }
    }

    static long totalCost(PlacedRule r) {
        return Math.multiplyExact(CelCostEstimate.ofRule(r.rule(), r.self()), r.cardinality());
    }

    @Test
    void everyRuleIsEstimatedWithinTheApiServersBudget() throws IOException {
        List<PlacedRule> rules = new ArrayList<>();
        collect("", schema(), 1, rules);
        assertEquals(6, rules.size(), "rules found: " + rules.stream().map(PlacedRule::path).toList());
        long sum = 0;
        for (PlacedRule r : rules) {
            long one = CelCostEstimate.ofRule(r.rule(), r.self());
            long total = totalCost(r);
            System.out.printf("CEL cost  %-40s per call %4d × runs %3d = %6d   %s%n", r.path(), one, r.cardinality(), total, r.rule());
            assertTrue(total <= CelCostEstimate.PER_RULE_BUDGET, r.path() + ": " + total + " > " + CelCostEstimate.PER_RULE_BUDGET);
            sum += total;
        }
        assertTrue(sum <= CelCostEstimate.PER_CRD_BUDGET, "all rules together: " + sum);
    }

    /** The estimator is not lenient: the rule this CRD had before, on the schema it had, is refused. */
    @Test
    void theQuadraticUniqueNameRuleOnAnUnboundedListIsOverBudget() throws IOException {
        JSONSchemaProps spec = schema().getProperties().get("spec");
        String quadratic = "self.projects.all(p, self.projects.exists_one(q, q.name == p.name))";
        long bounded = CelCostEstimate.ofRule(quadratic, spec);
        JSONSchemaProps projects = spec.getProperties().get("projects");
        projects.setMaxItems(null);
        projects.getItems().getSchema().getProperties().get("name").setMaxLength(null);
        long unbounded = CelCostEstimate.ofRule(quadratic, spec);
        System.out.printf("CEL cost  old unique-name rule: %d with the bounds, %d without (budget %d)%n",
                bounded, unbounded, CelCostEstimate.PER_RULE_BUDGET);
        assertTrue(unbounded > 100 * CelCostEstimate.PER_RULE_BUDGET, "the failure real API servers report: " + unbounded);
        assertTrue(bounded > 64 * 64, "quadratic in the list bound even when bounded: " + bounded);
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
