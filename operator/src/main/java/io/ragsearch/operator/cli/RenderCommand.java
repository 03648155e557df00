package io.ragsearch.operator.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.contract.ContractException;
import io.ragsearch.contract.budget.RerankBudget;
import io.ragsearch.contract.calibration.Calibration;
import io.ragsearch.contract.calibration.CalibrationJson;
import io.ragsearch.operator.budget.Mebibytes;
import io.ragsearch.operator.manifest.ManifestFactory;
import io.ragsearch.operator.manifest.Manifests;
import io.ragsearch.operator.file.RagSearchFile;
import io.ragsearch.operator.model.RagSearch;
import io.ragsearch.operator.naming.KubeNames;
import io.ragsearch.operator.model.RerankStatus;
import io.ragsearch.operator.reconcile.MeasuredCost;
import io.ragsearch.operator.reconcile.RerankPlanner;
import io.ragsearch.operator.spec.CheckedSpec;
import io.ragsearch.operator.spec.SpecCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Prints the manifests the reconciler would apply for a RagSearch file, without a cluster. */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = "Print the ConfigMap, Deployment, Service (and optional objects) the operator would apply.")
public final class RenderCommand implements Runnable {

    @Option(names = {"-f", "--file"}, required = true, description = "RagSearch YAML file")
    Path file;

    @Option(names = "--calibration", description = "A pod's /calibration JSON: render with the concurrency it gives")
    Path calibration;

    @Option(names = {"-n", "--namespace"}, defaultValue = "default",
            description = "Namespace when the file has none (default ${DEFAULT-VALUE})")
    String namespace;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        String badNamespace = KubeNames.dns1123Label("-n/--namespace", namespace);
        if (badNamespace != null) {
            throw new OperatorCli.UsageProblem(badNamespace);
        }
        RagSearch resource = RagSearchFile.read(file);
        if (resource.getMetadata().getNamespace() == null) {
            resource.getMetadata().setNamespace(namespace);
        }
        SpecCheck.Result checked = SpecCheck.check(resource, null);
        if (!checked.valid()) {
            throw new OperatorCli.UsageProblem(file + " is not a valid RagSearch:\n  - "
                    + String.join("\n  - ", checked.problems()));
        }
        CheckedSpec spec = checked.spec().orElseThrow();
        List<RerankPlanner.PodMeasurement> measured = calibration == null ? List.of()
                : List.of(new RerankPlanner.PodMeasurement("file", MeasuredCost.of(calibration.getFileName().toString(), readCalibration())));
        RerankPlanner.Plan plan = RerankPlanner.plan(spec, null, measured);
        if (calibration != null) {
            plan.status().basis = RerankStatus.BASIS_FILE;
        }
        Manifests manifests = ManifestFactory.build(spec, plan.effective().concurrency());
        PrintWriter out = this.spec.commandLine().getOut();
        // Comments first (every line of them starts with '#', whatever the values hold), then each object
        // as the serializer writes it: no input becomes YAML structure except through the serializer.
        out.print(header(spec, plan).lines().map(line -> line.startsWith("#") ? line : "# " + line)
                .collect(java.util.stream.Collectors.joining("\n", "", "\n")));
        for (HasMetadata object : manifests.all()) {
            String yaml = Serialization.asYaml(object);
            out.print(yaml.startsWith("---") ? yaml : "---\n" + yaml);
        }
        out.flush();
    }

    private Calibration readCalibration() {
        try {
            Calibration report = CalibrationJson.parse(Files.readString(calibration));
            if (!report.hasReranker()) {
                throw new OperatorCli.UsageProblem(calibration + ": this measurement has no reranker (perRunBytes 0)");
            }
            // The operator refuses such a pod's report (Calibrated False); render said nothing and rendered as if no
            // file had been given, so a typo in a hand-edited file went unnoticed.
            java.util.Optional<String> implausible = MeasuredCost.of("file", report).implausible();
            if (implausible.isPresent()) {
                throw new OperatorCli.UsageProblem(calibration + ": an implausible measurement, refused as the operator refuses it: "
                        + implausible.get());
            }
            return report;
        } catch (IOException | ContractException e) {
            throw new OperatorCli.UsageProblem(calibration + ": not a calibration JSON (" + e.getMessage() + ")");
        }
    }

    /** The decision in comments above the manifests, so a reviewer sees why the number is what it is. */
    static String header(CheckedSpec spec, RerankPlanner.Plan plan) {
        RerankStatus r = plan.status();
        StringBuilder b = new StringBuilder();
        b.append("# ragsearch-operator render: ").append(spec.namespace()).append('/').append(spec.name()).append('\n');
        if (spec.resource().getMetadata().getUid() == null) {
            b.append("# ownerReferences are added in the cluster (they need the RagSearch's uid).\n");
        }
        b.append("# secrets, ConfigMaps and claims named by the spec were not looked up (no cluster).\n");
        if (!spec.reranks()) {
            b.append("# rerank: no reranker configured; concurrency unused (1)\n");
        } else if (plan.safe() == null) {
            b.append("# rerank: concurrency ").append(r.effective).append(" (requested ").append(r.requested)
                    .append("; no measurement: 1 until a pod reports /calibration, or pass --calibration)\n");
        } else {
            b.append("# rerank: concurrency ").append(r.effective).append(" (requested ").append(r.requested)
                    .append(", safe ").append(r.safe).append(plan.effective().clamped() ? ", clamped" : "").append(")\n")
                    .append("#   budget = ").append(Mebibytes.text(r.memoryLimitBytes)).append(" × (1 − ").append(r.headroomPercent)
                    .append(" %) − resident ").append(Mebibytes.text(r.residentBytes)).append(" = ").append(Mebibytes.text(r.budgetBytes)).append('\n')
                    .append("#   byMemory = floor(budget / ").append(Mebibytes.text(r.perRunBytes)).append(" per run) = ").append(r.byMemory)
                    .append(", byCpu = ").append(r.byCpu == null ? "no CPU limit (capped at " + io.ragsearch.contract.budget.RerankBudget.MAX_WITHOUT_CPU_LIMIT + ")" : r.byCpu).append('\n');
            if (plan.memoryInsufficient()) {
                b.append("#   MemoryInsufficient: one rerank run does not fit in this limit\n");
            }
        }
        return b.toString();
    }
}
