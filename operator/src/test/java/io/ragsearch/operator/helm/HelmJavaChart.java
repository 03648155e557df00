package io.ragsearch.operator.helm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * The chart as helm-java's bundled engine can render it. That engine renders client-only as
 * Kubernetes v1.20.0 (Helm's default when built without its release flags), and helm-java offers no
 * --kube-version: the chart's kubeVersion range (>=1.30) would refuse every render. So the renders
 * here use a copy whose Chart.yaml lacks that one line, everything else byte for byte; the range
 * itself is checked with the real Helm 4 (HelmPackageIT, operator-sim) and lint runs on the chart as
 * it is.
 */
public final class HelmJavaChart {
    /** The chart in the checkout. */
    public static final Path CHART = Path.of("../helm/ragsearch-operator");
    private static Path copy;

    private HelmJavaChart() {
    }

    /** The copy, made once per JVM. */
    public static synchronized Path path() {
        if (copy == null) {
            try {
                Path dir = Files.createTempDirectory("ragsearch-chart-").resolve("ragsearch-operator");
                try (var files = Files.walk(CHART)) {
                    for (Path f : files.toList()) {
                        Path target = dir.resolve(CHART.relativize(f).toString());
                        if (Files.isDirectory(f)) {
                            Files.createDirectories(target);
                        } else {
                            Files.copy(f, target);
                        }
                    }
                }
                Path chartYaml = dir.resolve("Chart.yaml");
                String without = Files.readString(chartYaml).lines().filter(l -> !l.startsWith("kubeVersion:"))
                        .collect(Collectors.joining("\n", "", "\n"));
                Files.writeString(chartYaml, without);
                copy = dir;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return copy;
    }
}
