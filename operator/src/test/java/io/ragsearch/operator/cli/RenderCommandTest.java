package io.ragsearch.operator.cli;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.manifest.RenderedSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RenderCommandTest {
    static final Path EXAMPLE = Path.of("../examples/ragsearch.yaml");
    static final Path CALIBRATION = Path.of("../examples/calibration.json");

    record Run(int exit, String out, String err) {
    }

    static Run render(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = OperatorCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        String[] all = new String[args.length + 1];
        all[0] = "render";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = cli.execute(all);
        return new Run(exit, out.toString(), err.toString());
    }

    static List<HasMetadata> objects(String yaml) {
        return Arrays.stream(yaml.split("(?m)^---$")).map(String::strip).filter(s -> s.startsWith("apiVersion") || s.contains("\napiVersion"))
                .map(s -> (HasMetadata) Serialization.unmarshal(s)).toList();
    }

    /** Every YAML document of render's output, as a YAML reader sees them (comments are no documents). */
    static List<java.util.Map<?, ?>> documents(String yaml) throws java.io.IOException {
        try (com.fasterxml.jackson.databind.MappingIterator<java.util.Map<?, ?>> docs = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
                .readerFor(java.util.Map.class).readValues(yaml)) {
            return docs.readAll().stream().filter(java.util.Objects::nonNull).toList();
        }
    }

    /**
     * Issue 21, high 2: a line break, '---' and a cluster-admin ClusterRoleBinding in -n used to
     * come out as a document of its own, first. Now -n is a DNS-1123 label or render refuses, and
     * free text that the API server does allow (an annotation value) goes through the serializer
     * and stays a value.
     */
    @Test
    void noInputAddsADocument(@TempDir Path dir) throws Exception {
        String crb = "\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: pwned}\n"
                + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\n"
                + "subjects: [{kind: ServiceAccount, name: default, namespace: default}]\n";
        Run injected = render("-f", EXAMPLE.toString(), "-n", "default" + crb);
        assertEquals(2, injected.exit(), injected.err());
        assertTrue(injected.err().contains("-n/--namespace 'default\\n---\\napiVersion"), injected.err());
        assertEquals("", injected.out());

        String yamlValue = ("default" + crb).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        Path file = Files.writeString(dir.resolve("annotated.yaml"), Files.readString(EXAMPLE)
                + "  pod:\n    annotations: {note: \"" + yamlValue + "\"}\n");
        Run run = render("-f", file.toString());
        assertEquals(0, run.exit(), run.err());
        List<java.util.Map<?, ?>> docs = documents(run.out());
        assertEquals(List.of("ConfigMap", "Deployment", "Service", "PodDisruptionBudget"), docs.stream().map(d -> d.get("kind")).toList(),
                run.out());
        Deployment d = (Deployment) objects(run.out()).get(1);
        assertEquals("default" + crb, d.getSpec().getTemplate().getMetadata().getAnnotations().get("note"), "the text stays one value");
        assertTrue(run.out().lines().filter(l -> !l.startsWith("#") && !l.startsWith(" ") && !l.equals("---"))
                .allMatch(l -> l.matches("[a-zA-Z]+:.*")), "only the serializer's top-level keys outside comments");
    }

    @Test
    void exampleRendersWithTheConcurrencyOfTheGivenCalibration() {
        Run run = render("-f", EXAMPLE.toString(), "--calibration", CALIBRATION.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("# rerank: concurrency 2 (requested auto, safe 2)"), run.out());
        List<HasMetadata> objects = objects(run.out());
        assertEquals(List.of("ConfigMap", "Deployment", "Service", "PodDisruptionBudget"),
                objects.stream().map(HasMetadata::getKind).toList());
        Deployment d = (Deployment) objects.get(1);
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("2", c.getEnv().stream().filter(e -> e.getName().equals("RAGSEARCH_RERANK_CONCURRENCY"))
                .findFirst().orElseThrow().getValue());
        assertEquals("/startupz", c.getStartupProbe().getHttpGet().getPath());
        assertEquals("1500Mi", c.getResources().getRequests().get("memory").toString());
        assertEquals(2, d.getSpec().getReplicas());
        assertEquals(8080, ((Service) objects.get(2)).getSpec().getPorts().get(0).getPort());
        assertEquals(1, ((PodDisruptionBudget) objects.get(3)).getSpec().getMinAvailable().getIntVal());
    }

    /** The JWT example: render shows the server's auth section and the projected token and CA the pod reads the keys with. */
    @Test
    void renderShowsJwtAuthAndTheProjectedKeysAccess() {
        Run run = render("-f", "../examples/ragsearch-jwt.yaml");
        assertEquals(0, run.exit(), run.err());
        ConfigMap config = (ConfigMap) objects(run.out()).get(0);
        ServerSettings parsed = RenderedSettings.parse(config.getData().get("config.yaml"));
        assertEquals(List.of(), SettingsRules.problems(parsed));
        assertEquals("jwt", parsed.auth().mode());
        assertEquals(List.of("ragsearch.search"), parsed.auth().audiences());
        assertEquals(List.of("agents:security-agent"), parsed.auth().access().get(1).serviceAccounts());
        assertTrue(run.out().contains("serviceAccountToken:") && run.out().contains("kube-root-ca.crt"), run.out());
        assertTrue(!run.out().contains("RAGSEARCH_AUTH_TOKEN"), "no static token with jwt");
    }

    @Test
    void theServerAcceptsTheConfigTheOperatorWrites() {
        Run run = render("-f", EXAMPLE.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("no measurement: 1 until a pod reports /calibration"), run.out());
        ConfigMap config = (ConfigMap) objects(run.out()).get(0);
        ServerSettings parsed = RenderedSettings.parse(config.getData().get("config.yaml"));
        assertEquals(List.of(), SettingsRules.problems(parsed));
        assertEquals("handbook", parsed.projects().get(0).name());
        assertEquals("/corpus/handbook", parsed.projects().get(0).source().directory());
        assertEquals("minilm-pair", parsed.projects().get(0).reranker().builtin());
        assertEquals(0.5, parsed.projects().get(0).gate().threshold());
    }

    /**
     * A platform team's own models (docs/models.md, "A larger model of your own"): mounted from
     * their claim where the server reads them, with the vector and score settings as the spec
     * gives them; misplaced settings are refused with the field that carries them.
     */
    @Test
    void ownModelsAreMountedAndConfiguredAsTheSpecSays(@TempDir Path dir) throws Exception {
        Path own = Path.of("../examples/ragsearch-own-models.yaml");
        Run run = render("-f", own.toString());
        assertEquals(0, run.exit(), run.err());
        List<HasMetadata> objects = objects(run.out());
        ServerSettings parsed = RenderedSettings.parse(((ConfigMap) objects.get(0)).getData().get("config.yaml"));
        assertEquals(List.of(), SettingsRules.problems(parsed));
        assertEquals(ServerSettings.ModelRef.ofPath("embedding").withPooling("cls").withNormalize(true).withMaxSeqLen(512)
                .withDimension(1024), parsed.models().embedding());
        assertEquals(ServerSettings.RerankerRef.ofPath("reranker").withMaxSeqLen(512).withScoreMapping("sigmoid").withPositiveClass(0),
                parsed.projects().get(0).reranker());
        Container c = ((Deployment) objects.get(1)).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("/models", c.getEnv().stream().filter(e -> e.getName().equals("RAGSEARCH_MODEL_DIR")).findFirst().orElseThrow().getValue());
        assertTrue(c.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/models/embedding")
                && "bge-m3".equals(m.getSubPath()) && m.getReadOnly()), c.getVolumeMounts().toString());
        assertTrue(c.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/models/reranker")
                && "bge-reranker-v2-m3".equals(m.getSubPath())), c.getVolumeMounts().toString());

        Path misplaced = Files.writeString(dir.resolve("misplaced.yaml"), Files.readString(own)
                .replace("      scoreMapping: sigmoid     # one relevance logit (auto does the same)\n",
                        "      scoreMapping: softmax\n      pooling: mean\n")
                .replace("      positiveClass: 0\n", "      positiveClass: 16\n")
                .replace("      dimension: 1024", "      dimension: 1024\n      positiveClass: 1"));
        Run refused = render("-f", misplaced.toString());
        assertEquals(2, refused.exit(), refused.out());
        assertTrue(refused.err().contains("spec.models.embedding: scoreMapping and positiveClass are for spec.models.reranker"), refused.err());
        assertTrue(refused.err().contains("spec.models.reranker: pooling, normalize, queryPrefix, passagePrefix, output and dimension"
                + " are for spec.models.embedding"), refused.err());
        assertTrue(refused.err().contains("spec.models.reranker.positiveClass must be 0..15 (an index into the model's logits), got 16"), refused.err());
    }

    @Test
    void platformSettingsReachThePods(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("platform.yaml");
        Files.writeString(file, Files.readString(EXAMPLE)
                .replace("memory: 1500Mi", "memory: 1e9\n    tmpSize: 512Mi")
                
                .replace("replicas: 2", "replicas: 3")
                + """
                  pod:
                    nodeSelector: {node-pool: search}
                    tolerations:
                      - {key: dedicated, operator: Equal, value: search, effect: NoSchedule}
                    affinity:
                      nodeAffinity:
                        requiredDuringSchedulingIgnoredDuringExecution:
                          nodeSelectorTerms:
                            - matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]
                    priorityClassName: search-critical
                    imagePullSecrets: [{name: registry-creds}]
                    labels: {team: search}
                    annotations: {cost-center: "42"}
                    preStopDelaySeconds: 8
                    shutdownSeconds: 45
                    platformAssignsUser: true
                """);
        Run run = render("-f", file.toString());
        assertEquals(0, run.exit(), run.err());
        Deployment d = (Deployment) objects(run.out()).get(1);
        var pod = d.getSpec().getTemplate().getSpec();
        Container c = pod.getContainers().get(0);
        assertEquals("1G", c.getResources().getLimits().get("memory").toString(), "an exponent quantity, unquoted: its amount in one spelling");
        assertEquals("2", c.getResources().getLimits().get("cpu").toString(), "cpu: 2 unquoted");
        assertEquals("search", pod.getNodeSelector().get("node-pool"));
        assertEquals("dedicated", pod.getTolerations().get(0).getKey());
        assertEquals("amd64", pod.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms().get(0).getMatchExpressions().get(0).getValues().get(0));
        assertEquals("search-critical", pod.getPriorityClassName());
        assertEquals("registry-creds", pod.getImagePullSecrets().get(0).getName());
        assertEquals("search", d.getSpec().getTemplate().getMetadata().getLabels().get("team"));
        assertEquals("ragsearch", d.getSpec().getTemplate().getMetadata().getLabels().get("app.kubernetes.io/name"));
        assertEquals("42", d.getSpec().getTemplate().getMetadata().getAnnotations().get("cost-center"));
        assertEquals(List.of("sleep", "8"), c.getLifecycle().getPreStop().getExec().getCommand());
        assertEquals(53L, pod.getTerminationGracePeriodSeconds(), "the drain delay (8) comes on top of the shutdown time (45)");
        assertEquals(Boolean.TRUE, pod.getSecurityContext().getRunAsNonRoot());
        assertEquals(null, pod.getSecurityContext().getRunAsUser(), "the platform assigns the user (restricted-v2)");
        assertEquals(null, pod.getSecurityContext().getFsGroup());
        var spread = pod.getTopologySpreadConstraints().get(0);
        assertEquals("kubernetes.io/hostname", spread.getTopologyKey(), "3 replicas spread over nodes by default");
        assertEquals("ScheduleAnyway", spread.getWhenUnsatisfiable());
        assertEquals("handbook", spread.getLabelSelector().getMatchLabels().get("app.kubernetes.io/instance"));
        var tmp = pod.getVolumes().stream().filter(v -> v.getName().equals("tmp")).findFirst().orElseThrow();
        assertEquals("512Mi", tmp.getEmptyDir().getSizeLimit().toString());
        assertEquals("536870912", c.getResources().getRequests().get("ephemeral-storage").toString());
    }

    @Test
    void defaultsWithoutPodSettings() {
        Run run = render("-f", EXAMPLE.toString());
        Deployment d = (Deployment) objects(run.out()).get(1);
        var pod = d.getSpec().getTemplate().getSpec();
        assertEquals(10001L, pod.getSecurityContext().getRunAsUser());
        assertEquals(List.of("sleep", "5"), pod.getContainers().get(0).getLifecycle().getPreStop().getExec().getCommand());
        assertEquals(35L, pod.getTerminationGracePeriodSeconds(), "5 s drain + 30 s shutdown by default");
        assertEquals("1Gi", pod.getVolumes().stream().filter(v -> v.getName().equals("tmp")).findFirst().orElseThrow()
                .getEmptyDir().getSizeLimit().toString());
        assertEquals(1, pod.getTopologySpreadConstraints().size(), "the example runs 2 replicas");
        assertEquals("-Xmx250m -XX:+ExitOnOutOfMemoryError", pod.getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS")).findFirst().orElseThrow().getValue(),
                "a sixth of 1500Mi: the JVM's default quarter would be counted as resident");
    }

    @Test
    void renderAndTheCrdAgreeOnTheConcurrencysType(@TempDir Path dir) throws Exception {
        // The CRD: an integer, or the string auto (x-kubernetes-int-or-string with a CEL rule). A quoted number is a string.
        Path quoted = dir.resolve("quoted.yaml");
        Files.writeString(quoted, Files.readString(EXAMPLE).replace("concurrency: auto", "concurrency: \"3\""));
        Run refused = render("-f", quoted.toString());
        assertEquals(2, refused.exit());
        assertTrue(refused.err().contains("spec.rerank.concurrency must be auto or a whole number of at least 1, got the string '3'"),
                refused.err());
        Path number = dir.resolve("number.yaml");
        Files.writeString(number, Files.readString(EXAMPLE).replace("concurrency: auto", "concurrency: 3"));
        assertEquals(0, render("-f", number.toString()).exit());
        String crd = Files.readString(Path.of("../crds/ragsearches.ragsearch.io-v1.yml"));
        assertTrue(crd.contains("type(self) == int ? self >= 1 : self == 'auto'"), "the CRD's rule this mirrors");
    }

    @Test
    void outOfRangeQuantitiesAreNamedWithTheirRange(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("huge.yaml");
        Files.writeString(file, Files.readString(EXAMPLE).replace("memory: 1500Mi", "memory: 999999Ti")
                .replace("cpu: 2", "cpu: 1000000000"));
        Run run = render("-f", file.toString());
        assertEquals(2, run.exit());
        assertTrue(run.err().contains("spec.resources.memory 999999Ti is out of range: between 256Mi and 64Ti"), run.err());
        assertTrue(run.err().contains("spec.resources.cpu 1000000000 is out of range: between 1m and 4096 (cores)"), run.err());
        assertTrue(!run.err().contains("Overflow"), run.err());
    }

    @Test
    void malformedYamlUnknownFieldsAndInvalidSpecsAreClearErrors(@TempDir Path dir) throws Exception {
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "apiVersion: ragsearch.io/v1alpha1\nkind: RagSearch\nspec: [unclosed\n");
        Run a = render("-f", broken.toString());
        assertEquals(2, a.exit());
        assertTrue(a.err().contains("not valid YAML"), a.err());

        Path typo = dir.resolve("typo.yaml");
        Files.writeString(typo, Files.readString(EXAMPLE).replace("headroomPercent:", "headroomPercnt:"));
        Run b = render("-f", typo.toString());
        assertEquals(2, b.exit());
        assertTrue(b.err().contains("unknown field 'headroomPercnt' at spec.rerank.headroomPercnt"), b.err());

        Path invalid = dir.resolve("invalid.yaml");
        Files.writeString(invalid, Files.readString(EXAMPLE).replace("memory: 1500Mi", "memory: 1.5 gigs"));
        Run c = render("-f", invalid.toString());
        assertEquals(2, c.exit());
        assertTrue(c.err().contains("spec.resources.memory '1.5 gigs' is not a Kubernetes quantity"), c.err());

        Path other = dir.resolve("deployment.yaml");
        Files.writeString(other, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n");
        Run d = render("-f", other.toString());
        assertEquals(2, d.exit());
        assertTrue(d.err().contains("expected apiVersion ragsearch.io/v1alpha1 and kind RagSearch"), d.err());

        Run e = render("-f", dir.resolve("missing.yaml").toString());
        assertEquals(2, e.exit());
        assertTrue(e.err().contains("no such file"), e.err());
    }
}
