package io.ragsearch.operator.fuzz;

import io.ragsearch.operator.manifest.ManifestFactory;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.file.RagSearchFileException;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property-based fuzzing of the RagSearch loader and everything render does after it: any text
 * is either refused with a usage message (no Java names) or becomes a resource that SpecCheck
 * answers with problems or a checked spec, and a checked spec always builds manifests.
 */
class RagSearchFileFuzzTest {

    private static final Pattern LEAK = Pattern.compile("\\tat |\\bjava\\.|com\\.fasterxml|org\\.yaml\\.snakeyaml\\.events");

    @Provide
    Arbitrary<String> ragSearchFiles() {
        Arbitrary<String> value = Arbitraries.oneOf(Arbitraries.of("1", "-1", "2.5", "2147483648", "0", "\"\"", "x", "[]", "{}", "null",
                "1500Mi", "-1Gi", "9Ei", "500m", "auto", "true", "&a 1", "*a", "\"..\"", "../../etc", "hand.book", "hand_book"),
                Arbitraries.strings().ofMaxLength(12));
        Arbitrary<String> specLine = Arbitraries.of("replicas", "image", "startupTimeoutSeconds", "resources", "rerank", "projects",
                "models", "gate", "unknown").flatMap(key -> value.map(v -> "  " + key + ": " + v + "\n"));
        Arbitrary<String> nested = Arbitraries.of(
                "  resources:\n    memory: %s\n    cpu: %s\n",
                "  projects:\n    - name: %s\n      source: {configMap: %s}\n",
                "  rerank:\n    concurrency: %s\n    headroomPercent: %s\n",
                "  models:\n    reranker: {pvc: {claimName: %s, path: %s}}\n")
                .flatMap(template -> value.list().ofSize(2).map(v -> String.format(template, v.get(0), v.get(1))));
        return Arbitraries.oneOf(specLine, nested, Arbitraries.strings().ofMaxLength(30)).list().ofMaxSize(8)
                .map(lines -> "apiVersion: ragsearch.io/v1alpha1\nkind: RagSearch\nmetadata:\n  name: fuzz\n  namespace: d\n"
                        + "spec:\n  image: i\n  resources: {memory: 1Gi}\n" + String.join("", lines));
    }

    @Property
    void anyFileIsRefusedCleanlyOrRendersManifests(@ForAll("ragSearchFiles") String text) {
        RagSearch resource;
        try {
            resource = RagSearchFile.parse("fuzz.yaml", text);
        } catch (RuntimeException e) {
            assertTrue(e instanceof RagSearchFileException, "only a file problem: " + e);
            assertFalse(LEAK.matcher(String.valueOf(e.getMessage())).find(), e.getMessage());
            return;
        }
        if (resource.getMetadata().getNamespace() == null) {
            resource.getMetadata().setNamespace("d");
        }
        SpecCheck.Result checked = SpecCheck.check(resource, null);
        if (!checked.valid()) {
            assertFalse(checked.problems().isEmpty());
            return;
        }
        CheckedSpec spec = checked.spec().orElseThrow();
        assertNotNull(ManifestFactory.build(spec, 1).all());
    }

    @Property
    void anyTextAtAllIsRefusedCleanlyOrParsed(@ForAll String text) {
        try {
            RagSearchFile.parse("fuzz.yaml", text);
        } catch (RuntimeException e) {
            assertTrue(e instanceof RagSearchFileException, "only a file problem: " + e);
        }
    }
}
