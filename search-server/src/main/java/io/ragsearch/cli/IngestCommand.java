package io.ragsearch.cli;

import io.ragsearch.contract.Environment;
import io.ragsearch.contract.settings.Bounds;
import io.ragsearch.config.ConfigLoader;
import io.ragsearch.server.SettingsResolver;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.EmbeddingSettings;
import io.ragsearch.embed.ModelFiles;
import io.ragsearch.embed.ModelRegistry;
import io.ragsearch.embed.SessionSettings;
import io.ragsearch.embed.TextEmbedder;
import io.ragsearch.index.TokenizerFit;
import io.ragsearch.search.ProjectLoader;
import io.ragsearch.store.Database;
import io.ragsearch.store.Ingester;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Writes a directory into the corpus record: idempotent, one transaction, version bump on change. */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Parse DIR with the same loader as serve, compute embeddings once, and upsert it into PostgreSQL as "
                + "project NAME: unchanged files (by sha256) are skipped, removed files deleted, the corpus version bumped "
                + "when anything changed. Running it again on the same directory changes nothing.")
final class IngestCommand implements Callable<Integer> {

    @Option(names = "--db", paramLabel = "JDBC_URL", description = "Database (default $RAGSEARCH_DB_URL).")
    String db;

    @Option(names = "--user", description = "Database user (default $RAGSEARCH_DB_USER).")
    String user;

    @Option(names = "--project", required = true, paramLabel = "NAME", description = "Project name.")
    String project;

    @Option(names = "--description", description = "What the project holds (shown to agents).")
    String description;

    @Option(names = "--embeddings", paramLabel = "auto|always|never",
            description = "Store embeddings: auto (default) when the embedding model represents the text, always, never.")
    String embeddings = "auto";

    @Option(names = "--include", split = ",", paramLabel = "GLOB", description = "Files to read (default **.md,**.markdown,**.txt).")
    List<String> include = CorpusLoader.DEFAULT_INCLUDE;

    @Option(names = "--include-addenda", description = "Keep 부칙 (addenda), skipped by default.")
    boolean includeAddenda;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Server configuration whose models.embedding (model and vector settings) to embed with, so the "
                    + "stored embeddings match what that server computes (default: the built-in model).")
    Path config;

    @Parameters(paramLabel = "DIR", description = "Directory of Markdown/text files.")
    Path dir;

    @Override
    public Integer call() throws Exception {
        String url = db != null ? db : System.getenv(Environment.DB_URL);
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("no database: give --db JDBC_URL or set RAGSEARCH_DB_URL");
        }
        if (!Bounds.PROJECT_NAME.matcher(project).matches()) {
            throw new IllegalArgumentException("--project must be lower-case letters, digits, '.', '_' or '-' (got " + project + ")");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("directory " + dir + " does not exist");
        }
        long t0 = System.nanoTime();
        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(includeAddenda, include).load(project, dir);
        loaded.problems().forEach(p -> System.err.println("warning: " + p));
        try (ModelRegistry registry = new ModelRegistry();
             Database database = new Database(url, user != null ? user : System.getenv(Environment.DB_USER),
                     System.getenv(Environment.DB_PASSWORD))) {
            TextEmbedder embedder = embedder(registry, loaded);
            Ingester.Report r;
            try {
                r = new Ingester(database).ingest(loaded.corpus(), description, dir.toAbsolutePath().normalize().toString(), embedder);
            } catch (java.sql.SQLException e) {
                // The pool says only "request timed out"; a wrong password must be named as such.
                throw new IllegalStateException("ingest into " + database.url() + " failed: " + database.problem(e), e);
            }
            System.out.printf(Locale.ROOT, "project %s: %d added, %d updated, %d removed, %d unchanged documents; %d articles written; "
                            + "embeddings %s; corpus version %d%s (%.1f s)%n", r.project(), r.added(), r.updated(), r.removed(),
                    r.unchanged(), r.articlesWritten(), r.embeddingModel() == null ? "none" : r.embeddingModel(), r.version(),
                    r.changed() ? "" : " (nothing changed)", (System.nanoTime() - t0) / 1e9);
            if (embedder != null) {
                embedder.close();
            }
        }
        return 0;
    }

    private TextEmbedder embedder(ModelRegistry registry, CorpusLoader.LoadedCorpus loaded) throws Exception {
        EmbeddingModel model = embeddingModel();
        ModelFiles files = model.files();
        EmbeddingSettings settings = model.settings();
        switch (embeddings.toLowerCase(Locale.ROOT)) {
            case "never":
                return null;
            case "always":
                break;
            case "auto":
                try (var tokenizer = TextEmbedder.loadTokenizer(files, settings)) {
                    TokenizerFit fit = TokenizerFit.measure(tokenizer, loaded.corpus());
                    if (!ProjectLoader.suitsVectors(fit)) {
                        System.err.printf(Locale.ROOT, "no embeddings: %s cannot represent %.0f%% of the words (--embeddings always "
                                + "to store them anyway)%n", files.name(), fit.uncoveredShare() * 100);
                        return null;
                    }
                }
                break;
            default:
                throw new IllegalArgumentException("--embeddings must be auto, always or never (got " + embeddings + ")");
        }
        return TextEmbedder.load(registry, files, new SessionSettings(Runtime.getRuntime().availableProcessors(),
                SessionSettings.DEFAULT_ARENA), settings);
    }

    /** The configured embedding model (only the models section of --config is read), or the built-in one. */
    private EmbeddingModel embeddingModel() {
        return config == null ? SettingsResolver.defaultEmbedding(System.getenv())
                : SettingsResolver.embedding(ConfigLoader.load(config), System.getenv());
    }
}
