package io.ragsearch.operator.manifest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.contract.settings.SettingsRules;
import io.ragsearch.operator.model.Gate;
import io.ragsearch.operator.model.ModelSource;
import io.ragsearch.operator.model.Project;
import io.ragsearch.operator.model.RagSearchSpec;
import io.ragsearch.operator.naming.PodLayout;
import io.ragsearch.operator.spec.AuthSection;
import io.ragsearch.operator.spec.CheckedSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * The search server's configuration file, written from the spec as the contract's typed
 * {@link ServerSettings}. Listener, concurrency and secrets stay out of it: they come from the
 * environment the Deployment sets. What the concurrency was asked as ({@code rerank.retune}) is in
 * it: the server recomputes its permits from it when its memory limit is resized in place.
 */
public final class ServerConfigYaml {

    /** ConfigMap volumes hold each key as a top-level link; deeper globs would also see the ..data copies. */
    static final List<String> CONFIGMAP_INCLUDE = List.of("*.md", "*.markdown", "*.txt");

    /**
     * fabric8's YAML style (the rest of what render prints), absent fields left out, fields in the
     * order earlier operators wrote them: the text is part of the config hash, and a new order
     * alone would roll every pod on an operator upgrade.
     */
    private static final ObjectMapper YAML = Serialization.yamlMapper().copy()
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .addMixIn(ServerSettings.class, SettingsOrder.class)
            .addMixIn(ServerSettings.Rerank.class, RerankOrder.class)
            .addMixIn(ServerSettings.Project.class, ProjectOrder.class);

    @JsonPropertyOrder({"server", "rerank", "models", "database", "projects", "auth"})
    private interface SettingsOrder {
    }

    @JsonPropertyOrder({"intraOpThreads", "queueTimeoutMillis"})
    private interface RerankOrder {
    }

    @JsonPropertyOrder({"name", "description", "language", "retrieval", "source", "gate", "reranker"})
    private interface ProjectOrder {
    }

    private ServerConfigYaml() {
    }

    public static String render(CheckedSpec checked) {
        ServerSettings settings = settings(checked);
        List<String> problems = SettingsRules.problems(asThePodSeesIt(settings, checked));
        if (!problems.isEmpty()) {
            // The spec passed its check, so this is the operator's bug, not the user's: never hand it to a pod.
            throw new IllegalStateException("the operator rendered a server configuration the server would refuse: "
                    + String.join("; ", problems));
        }
        try {
            return YAML.writeValueAsString(settings);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("server configuration not serialisable: " + e.getOriginalMessage(), e);
        }
    }

    /** The configuration for a checked spec. */
    public static ServerSettings settings(CheckedSpec checked) {
        RagSearchSpec spec = checked.spec();
        Integer queueTimeout = spec.rerank == null ? null : spec.rerank.queueTimeoutMillis;
        // What the server needs to apply the same budget itself when its memory limit is resized in place.
        ServerSettings.Retune retune = new ServerSettings.Retune(checked.request().fixed(), checked.request().force() ? true : null,
                checked.headroomPercent(), checked.cpuMillis() == null ? null : Math.toIntExact(checked.cpuMillis()));
        ServerSettings.Rerank rerank = ServerSettings.Rerank.EMPTY.withQueueTimeoutMillis(queueTimeout)
                .withIntraOpThreads(checked.intraOpThreads()).withRetune(checked.reranks() ? retune : null);
        ServerSettings.Models models = spec.models == null || spec.models.embedding == null ? null
                : new ServerSettings.Models(embedding(spec.models.embedding));
        ModelSource reranker = spec.models == null ? null : spec.models.reranker;
        List<ServerSettings.Project> projects = new ArrayList<>();
        for (Project p : spec.projects) {
            projects.add(ServerSettings.Project.named(p.name).withDescription(p.description).withSource(source(p))
                    .withLanguage(p.language).withRetrieval(p.retrieval).withGate(gate(p.gate, spec.gate))
                    .withReranker(reranker == null ? null : reranker(reranker)));
        }
        return ServerSettings.EMPTY.withModels(models).withRerank(rerank).withProjects(List.copyOf(projects)).withAuth(AuthSection.of(spec.auth));
    }

    /** The database's URL, user and password reach the pod as environment variables (from the Secret). */
    private static ServerSettings asThePodSeesIt(ServerSettings s, CheckedSpec checked) {
        if (checked.spec().database == null) {
            return s;
        }
        return s.withDatabase(ServerSettings.Database.at("from-the-secret"));
    }

    private static ServerSettings.Source source(Project p) {
        if (Boolean.TRUE.equals(p.source.database)) {
            return ServerSettings.Source.DATABASE;
        }
        return ServerSettings.Source.ofDirectory(PodLayout.CORPUS_DIR + "/" + p.name).withInclude(CONFIGMAP_INCLUDE);
    }

    /**
     * Built-in by name, otherwise the directory below RAGSEARCH_MODEL_DIR that the pod mounts or fetches into;
     * the vector settings as the spec gives them (absent ones keep the server's defaults for that model).
     */
    private static ServerSettings.ModelRef embedding(ModelSource m) {
        return (m.builtin != null ? ServerSettings.ModelRef.ofBuiltin(m.builtin) : ServerSettings.ModelRef.ofPath("embedding"))
                .withMaxSeqLen(m.maxSeqLen).withPooling(m.pooling).withNormalize(m.normalize).withQueryPrefix(m.queryPrefix)
                .withPassagePrefix(m.passagePrefix).withOutput(m.output).withDimension(m.dimension);
    }

    private static ServerSettings.RerankerRef reranker(ModelSource m) {
        ServerSettings.RerankerRef ref = m.builtin != null ? ServerSettings.RerankerRef.ofBuiltin(m.builtin)
                : ServerSettings.RerankerRef.ofPath("reranker");
        return ref.withMaxSeqLen(m.maxSeqLen).withScoreMapping(m.scoreMapping).withPositiveClass(m.positiveClass);
    }

    private static ServerSettings.Gate gate(Gate own, Gate shared) {
        if (own != null && own.threshold != null) {
            return new ServerSettings.Gate(own.threshold);
        }
        return shared == null || shared.threshold == null ? null : new ServerSettings.Gate(shared.threshold);
    }
}
