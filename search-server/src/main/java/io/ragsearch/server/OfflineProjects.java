package io.ragsearch.server;

import io.opentelemetry.api.trace.Tracer;
import io.ragsearch.telemetry.Telemetry;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.metrics.Metrics;
import io.ragsearch.search.ProjectCatalog;
import io.ragsearch.search.SearchService;
import io.ragsearch.store.CorpusStore;
import io.ragsearch.store.Database;
import io.ragsearch.store.DatabaseProblem;
import io.ragsearch.store.DatabaseSettings;
import java.io.IOException;
import java.sql.SQLException;

/** For the query and eval commands: the server's projects loaded (directory and database), nothing served. */
public final class OfflineProjects {

    private OfflineProjects() {
    }

    public static SearchService load(ServerSettings config, ServerEnvironment env, ProjectCatalog into) throws IOException {
        return load(config, env, into, name -> true);
    }

    /** @param wanted which database projects to read: a project the command does not ask for cannot stop it */
    public static SearchService load(ServerSettings config, ServerEnvironment env, ProjectCatalog into,
                                     java.util.function.Predicate<String> wanted) throws IOException {
        return load(SettingsResolver.resolve(config, env), into, wanted);
    }

    /** With settings already resolved (a caller that needs them too resolves them once). */
    public static SearchService load(AppSettings settings, ProjectCatalog into, java.util.function.Predicate<String> wanted)
            throws IOException {
        return load(settings, into, wanted, Telemetry.OFF_TRACER);
    }

    /** @param tracer what the search's spans go to (stdio traces like the listener) */
    public static SearchService load(AppSettings settings, ProjectCatalog into, java.util.function.Predicate<String> wanted,
                                     Tracer tracer) throws IOException {
        // The models stay open as long as the search: the process ends with the command.
        ProjectAssembly assembly = new ProjectAssembly(settings, phase -> { });
        assembly.loadDirectoryProjects(into);
        SearchService search = assembly.searchService(into, new Metrics(), tracer);
        if (settings.database().isPresent()) {
            DatabaseSettings ref = settings.database().get();
            var builder = assembly.databaseProjects();
            try (Database db = ref.open()) {
                CorpusStore store = new CorpusStore(db);
                for (String name : store.versions().keySet()) {
                    if (!wanted.test(name)) {
                        continue;
                    }
                    into.put(builder.build(store.read(name).orElseThrow()));
                }
            } catch (SQLException e) {
                throw new IOException("cannot read the database " + Database.redact(ref.url()) + ": " + DatabaseProblem.describe(e, ref.user()), e);
            }
        }
        return search;
    }
}
