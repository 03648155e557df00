package io.ragsearch.operator.reconcile;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.ragsearch.operator.model.Auth;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.Models;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.ProjectSource;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.model.Rerank;
import io.ragsearch.operator.model.Resources;
import io.ragsearch.operator.model.SecretKeys;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class SpecCheckTest {

    @Test
    void parsesQuantitiesAndAppliesDefaults() {
        CheckedSpec c = SpecCheck.check(valid(), null).spec().orElseThrow();
        assertEquals(1500L * 1024 * 1024, c.memoryBytes());
        assertEquals(1500L, c.cpuMillis());
        assertEquals(1, c.replicas());
        assertEquals(10, c.headroomPercent());
        assertEquals("auto", c.requested());
        assertEquals("builtin:minilm-pair", c.rerankerSource());
        assertEquals(600, c.startupTimeoutSeconds());
    }

    @Test
    void decimalUnitsAndNoCpu() {
        RagSearch r = valid();
        r.getSpec().resources.memory = "2G";
        r.getSpec().resources.cpu = null;
        CheckedSpec c = SpecCheck.check(r, null).spec().orElseThrow();
        assertEquals(2_000_000_000L, c.memoryBytes());
        assertNull(c.cpuMillis());
    }

    @Test
    void listsEveryProblemAtOnce() {
        RagSearch r = valid();
        r.getSpec().resources.memory = "1.5 GB";
        r.getSpec().resources.cpu = "0m";
        r.getSpec().projects.add(project("Handbook!", null));
        r.getSpec().projects.add(project("handbook", "other"));
        r.getSpec().rerank = new Rerank();
        r.getSpec().rerank.concurrency = new IntOrString("many");
        r.getSpec().rerank.headroomPercent = 95;
        r.getSpec().models.reranker.url = "https://x/y.zip";
        r.getSpec().auth = new Auth();
        r.getSpec().auth.bearerTokenSecretRef = new SecretKeys();
        r.getSpec().auth.bearerTokenSecretRef.name = "token";
        ReferenceLookup lookup = new ReferenceLookup() {
            public Optional<Set<String>> secretKeys(String ns, String name) {
                return Optional.of(Set.of("other"));
            }

            public boolean configMapExists(String ns, String name) {
                return name.equals("docs");
            }

            public boolean claimExists(String ns, String name) {
                return true;
            }
        };
        List<String> problems = SpecCheck.check(r, lookup).problems();
        String all = String.join("\n", problems);
        for (String expected : List.of("spec.resources.memory '1.5 GB' is not a Kubernetes quantity",
                "spec.resources.cpu must be positive", "name 'Handbook!' must be lower-case",
                "needs exactly one of database: true or configMap", "duplicate project name 'handbook'",
                "configMap 'other' not found", "spec.rerank.concurrency must be auto or a whole number of at least 1, got 'many'",
                "headroomPercent must be in [0, 90], got 95", "spec.models.reranker needs exactly one of builtin, pvc, url (got 2)",
                "secret 'token' lacks key(s) token")) {
            assertTrue(all.contains(expected), "missing '" + expected + "' in:\n" + all);
        }
        assertEquals(10, problems.size(), all);
    }

    @Test
    void tooSmallMemoryAndForceWithoutNumber() {
        RagSearch r = valid();
        r.getSpec().resources.memory = "128Mi";
        r.getSpec().rerank = new Rerank();
        r.getSpec().rerank.force = true;
        String all = String.join("\n", SpecCheck.check(r, null).problems());
        assertTrue(all.contains("below 256Mi"), all);
        assertTrue(all.contains("force needs a fixed"), all);
    }

    public static RagSearch valid() {
        RagSearch r = new RagSearch();
        r.getMetadata().setName("rules");
        r.getMetadata().setNamespace("ns");
        RagSearchSpec s = new RagSearchSpec();
        s.image = "ragsearch/server:1";
        s.resources = new Resources();
        s.resources.memory = "1500Mi";
        s.resources.cpu = "1500m";
        s.models = new Models();
        s.models.reranker = new ModelSource();
        s.models.reranker.builtin = "minilm-pair";
        s.projects = new ArrayList<>(List.of(project("handbook", "docs")));
        r.setSpec(s);
        return r;
    }

    static Project project(String name, String configMap) {
        Project p = new Project();
        p.name = name;
        p.source = new ProjectSource();
        p.source.configMap = configMap;
        return p;
    }
}
