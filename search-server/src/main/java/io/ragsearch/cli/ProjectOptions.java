package io.ragsearch.cli;

import io.ragsearch.config.ConfigException;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.config.ConfigOverrides;
import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.contract.settings.ServerSettings;
import io.ragsearch.server.SampleCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Options shared by serve and query: where the configuration and the projects come from. */
final class ProjectOptions {

    @Option(names = "--config", paramLabel = "FILE",
            description = "YAML configuration file (default: $RAGSEARCH_CONFIG when set).")
    Path config;

    @Option(names = "--db", paramLabel = "JDBC_URL",
            description = "Serve the projects of this PostgreSQL corpus record (or $RAGSEARCH_DB_URL; user and password from "
                    + "$RAGSEARCH_DB_USER / $RAGSEARCH_DB_PASSWORD).")
    String db;

    @Option(names = "--project", paramLabel = "NAME=DIR",
            description = "Serve the Markdown/text files under DIR as project NAME (repeatable).")
    List<String> projects = new ArrayList<>();

    /**
     * The configuration: file (or $RAGSEARCH_CONFIG), plus --project and --db; the sample corpus when
     * none of them, nor the environment, names a project or a database. The environment's overrides
     * are left to the resolver, which applies them once.
     */
    ServerSettings resolve(ServerEnvironment env) throws IOException {
        Path file = config != null ? config : env.configFile().orElse(null);
        ServerSettings base = file == null ? ServerSettings.EMPTY : ConfigLoader.load(file);
        List<ServerSettings.Project> extra = new ArrayList<>();
        for (String p : projects) {
            int eq = p.indexOf('=');
            if (eq <= 0 || eq == p.length() - 1) {
                throw new ConfigException("--project takes NAME=DIR, got '" + p + "'");
            }
            extra.add(project(p.substring(0, eq), Path.of(p.substring(eq + 1)), ""));
        }
        ServerSettings merged = ConfigOverrides.withDatabase(ConfigOverrides.withProjects(base, extra), db);
        if (ConfigOverrides.projects(merged).isEmpty() && !ConfigOverrides.databaseConfigured(env.applyTo(merged))) {
            Path sample = SampleCorpus.locate();
            List<ServerSettings.Project> samples = new ArrayList<>();
            for (SampleCorpus.SampleProject s : SampleCorpus.PROJECTS) {
                samples.add(project(s.name(), sample.resolve(s.directory()), s.description()));
            }
            merged = ConfigOverrides.withProjects(merged, samples);
        }
        for (ServerSettings.Project p : ConfigOverrides.projects(merged)) {
            if (p.source() != null && !ConfigOverrides.fromDatabase(p) && p.source().directory() != null
                    && !Files.isDirectory(Path.of(p.source().directory()))) {
                throw new ConfigException("project '" + p.name() + "': directory " + p.source().directory() + " does not exist");
            }
        }
        return merged;
    }

    private static ServerSettings.Project project(String name, Path dir, String description) {
        return ServerSettings.Project.ofDirectory(name, dir.toAbsolutePath().normalize().toString()).withDescription(description);
    }
}
