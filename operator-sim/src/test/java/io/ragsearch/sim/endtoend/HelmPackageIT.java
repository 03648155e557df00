package io.ragsearch.sim.endtoend;

import io.ragsearch.sim.cluster.HelmCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the real Helm 4 (not helm-java's bundled engine, which has no --kube-version) does with the
 * chart without a cluster: the Kubernetes range in Chart.yaml refuses an older API server, and
 * `helm package` makes the archive HelmUpgradeIT pushes to an OCI registry.
 */
class HelmPackageIT {
    static final Path CHART = Path.of("../helm/ragsearch-operator");

    final HelmCli helm = HelmCli.offline();

    @Test
    void anApiServerOlderThanTheChartsKubeVersionIsRefused() {
        HelmCli.Result old = helm.tryRun("template", "rs", CHART.toString(), "--kube-version", "v1.29.9");
        assertFalse(old.ok(), old.out());
        assertTrue(old.err().contains("chart requires kubeVersion: >=1.30.0-0 which is incompatible with Kubernetes v1.29.9"), old.err());
        for (String supported : new String[] {"v1.30.0", "v1.37.2", "v1.31.2-eks-7f9249a"}) {
            HelmCli.Result ok = helm.tryRun("template", "rs", CHART.toString(), "--kube-version", supported);
            assertTrue(ok.ok(), supported + ": " + ok.err());
            assertTrue(ok.out().contains("kind: CustomResourceDefinition"), supported);
        }
    }

    @Test
    void packagesTheChartWithItsVersionKubeVersionAndTheCrdTemplate(@TempDir Path out) throws Exception {
        String version = HelmCli.chartField(Files.readString(CHART.resolve("Chart.yaml")), "version");
        String printed = helm.run("package", CHART.toString(), "--destination", out.toString());
        Path tgz = out.resolve("ragsearch-operator-" + version + ".tgz");
        assertTrue(printed.contains(tgz.getFileName().toString()), printed);
        String listing = tarListing(tgz);
        assertTrue(listing.contains("ragsearch-operator/templates/crd.yaml\n"), listing);
        assertTrue(listing.contains("ragsearch-operator/files/ragsearches.ragsearch.io-v1.yml\n"), listing);
        assertFalse(listing.contains("ragsearch-operator/crds/"), "crds/ is never upgraded by Helm: " + listing);
        String shown = helm.run("show", "chart", tgz.toString());
        assertEquals(version, HelmCli.chartField(shown, "version"));
        assertEquals(">=1.30.0-0", HelmCli.chartField(shown, "kubeVersion"));
        System.out.printf("HelmPackageIT: %s, %d bytes%n", tgz.getFileName(), Files.size(tgz));
    }

    /** The names in a .tgz, one a line (plain ustar, as Helm writes it). */
    static String tarListing(Path tgz) throws Exception {
        StringBuilder names = new StringBuilder();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(tgz))) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                String name = new String(header, 0, 100, StandardCharsets.US_ASCII).replace("\0", "");
                String prefix = new String(header, 345, 155, StandardCharsets.US_ASCII).replace("\0", "");
                long size = Long.parseLong(new String(header, 124, 12, StandardCharsets.US_ASCII).replace("\0", "").strip(), 8);
                names.append(prefix.isEmpty() ? name : prefix + "/" + name).append('\n');
                in.skipNBytes((size + 511) / 512 * 512);
            }
        }
        return names.toString();
    }
}
