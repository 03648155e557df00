package io.ragsearch.server;

import io.ragsearch.admin.AdminSettings;
import io.ragsearch.auth.JwtSettings;
import io.ragsearch.calibrate.CalibrationSettings;
import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.VectorCache;
import io.ragsearch.mcp.ListenerSettings;
import io.ragsearch.mcp.ToolPoolSettings;
import io.ragsearch.mcp.TransportSecurityPolicy;
import io.ragsearch.rerank.RerankSettings;
import io.ragsearch.search.ProjectSettings;
import io.ragsearch.search.SearchLimits;
import io.ragsearch.store.DatabaseSettings;
import io.ragsearch.verification.BaselinePolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole server's settings, resolved once from the configuration ({@link SettingsResolver}):
 * every value present, each group in the type of the component that takes it.
 */
public record AppSettings(Serving serving, Models models, List<ProjectSettings> projects, Optional<DatabaseSettings> database) {

    /**
     * The listeners, the tool pool, the bounds of a search, the checks file this server
     * verifies itself with before it is promoted (empty: /verification answers 404) and the
     * baselines it may compare with (its bearer token goes to them), the JWT checks of /mcp
     * (empty: the static bearer token of {@code mcp}, or none), and the OpenTelemetry variables
     * that configure trace export ({@code telemetry.Telemetry}).
     */
    public record Serving(ListenerSettings mcp, TransportSecurityPolicy security, ToolPoolSettings tools, AdminSettings admin,
                          SearchLimits limits, Optional<Path> verifyChecks, BaselinePolicy verifyBaselines,
                          Optional<JwtSettings> jwt, Map<String, String> otel) {
    }

    /**
     * The models and their resources: the embedding model and its session (all cores serve each
     * embedding run: runs are small and already bounded by the tool threads), rerank resources,
     * and the startup calibration.
     */
    public record Models(EmbeddingModel embedding, SessionSettings embeddingSession, RerankSettings rerank,
                         CalibrationSettings calibration, Optional<VectorCache> vectorCache) {
    }

    public AppSettings {
        projects = List.copyOf(projects);
    }

    /** The settings of configured projects whose documents are in the database, by name. */
    public Optional<ProjectSettings> databaseProject(String name) {
        return projects.stream().filter(p -> p.directory().isEmpty() && p.name().equals(name)).findFirst();
    }
}
