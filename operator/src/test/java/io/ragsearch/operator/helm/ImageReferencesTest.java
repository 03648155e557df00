package io.ragsearch.operator.helm;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.ragsearch.operator.file.RagSearchFile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The root pom defines the images' names and tags (what `-Pimages` builds); the chart's default
 * and the example must name exactly those, or a fresh install pulls an image nobody built.
 */
class ImageReferencesTest {
    static final String SERVER = System.getProperty("image.server");
    static final String OPERATOR = System.getProperty("image.operator");

    @Test
    void theChartRunsTheOperatorImageTheBuildMakes() {
        assertNotNull(OPERATOR, "surefire passes the build's image references");
        List<HasMetadata> objects = HelmChartTest.parse(new Helm(HelmChartTest.CHART).template().withName("rs").call());
        Deployment d = objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).findFirst().orElseThrow();
        assertEquals(OPERATOR, d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    }

    @Test
    void theExampleRunsTheServerImageTheBuildMakes() {
        assertNotNull(SERVER, "surefire passes the build's image references");
        assertEquals(SERVER, RagSearchFile.read(Path.of("../examples/ragsearch.yaml")).getSpec().image);
    }
}
