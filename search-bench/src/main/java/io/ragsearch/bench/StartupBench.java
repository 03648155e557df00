package io.ragsearch.bench;

import io.ragsearch.contract.Environment;
import io.ragsearch.corpus.Corpus;
import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.metrics.ProcessMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Start-to-ready of the pods of a large directory project (issue 20: a second pod must not embed
 * the corpus again). A project of N documents is made from the statutes ({@link SplitCorpus}) and
 * served three times by real server processes: lexical only (no model: the memory baseline),
 * with the built-in model and an empty vector cache (the first pod), and again with the cache the
 * first one filled (every later pod). Each start is timed from the process's launch to ready.
 */
@Command(name = "startup", mixinStandardHelpOptions = true,
        description = "Start-to-ready of a generated N-document directory project: lexical, cold vector cache (first pod), "
                + "warm vector cache (second pod); resident memory at ready and the model's share of it.")
public final class StartupBench implements Callable<Integer> {

    private static final Pattern VECTORS = Pattern.compile("project (\\S+): (\\d+) article vectors from the cache, (\\d+) embedded in (\\d+) ms");

    @Option(names = "--documents", paramLabel = "N", description = "Documents in the generated project (default 5000).")
    int documents = 5000;

    @Option(names = "--ko", paramLabel = "DIR", description = "Statutes to split (default $RAGSEARCH_SHARED_CORPUS or ../shared/corpus/ko-statutes).")
    Path ko;

    @Option(names = "--work", paramLabel = "DIR", description = "Where the project, the vector cache and the logs go (default: a new temporary directory).")
    Path work;

    /** One start: how long to ready, the resident memory then, and where the passage vectors came from. */
    record Start(String pod, double startToReadySeconds, long residentBytes, int vectorsFromCache, int vectorsEmbedded,
                 double embedSeconds) {
    }

    record Result(int documents, int articles, Start lexical, Start cold, Start warm) {

        /** The model's share of a pod's memory: the hybrid pod at ready against the lexical one. */
        long modelResidentBytes() {
            return warm.residentBytes() - lexical.residentBytes();
        }

        String markdown() {
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                    "start-to-ready of a %d-document directory project (%d articles)%n%n", documents, articles));
            out.append("| pod | start-to-ready | resident at ready | vectors from cache | embedded | embedding time |\n");
            out.append("|---|---|---|---|---|---|\n");
            for (Start s : List.of(lexical, cold, warm)) {
                out.append(String.format(Locale.ROOT, "| %s | %.1f s | %d MiB | %d | %d | %.1f s |%n", s.pod(), s.startToReadySeconds(),
                        s.residentBytes() >> 20, s.vectorsFromCache(), s.vectorsEmbedded(), s.embedSeconds()));
            }
            out.append(String.format(Locale.ROOT, "%nthe model's resident memory (hybrid pod at ready − lexical pod at ready): %d MiB%n",
                    modelResidentBytes() >> 20));
            return out.toString();
        }
    }

    @Override
    public Integer call() throws Exception {
        Path dir = work != null ? work : Files.createTempDirectory("ragsearch-startup-");
        System.out.print(run(SharedStatutes.directory(ko), documents, dir).markdown());
        return 0;
    }

    static Result run(Path statutes, int documents, Path work) throws Exception {
        Corpus source = new CorpusLoader(false, List.of("*.md")).load("statutes", statutes).corpus();
        List<SplitCorpus.GeneratedDocument> docs = SplitCorpus.documents(source, documents);
        if (docs.size() < documents) {
            throw new IllegalArgumentException(statutes + " holds distinct text for only " + docs.size() + " documents, not " + documents);
        }
        Path project = work.resolve("project");
        SplitCorpus.write(docs, project);
        int articles = new CorpusLoader(false, List.of("*.md")).load("split", project).corpus().articleCount();
        Path cache = work.resolve("vectors");
        Map<String, String> env = Map.of(Environment.VECTOR_CACHE, cache.toString());
        Start lexical = start("lexical (no model)", config(work, project, "lexical"), env, work);
        Start cold = start("first pod (empty vector cache)", config(work, project, "auto"), env, work);
        Start warm = start("second pod (cache filled)", config(work, project, "auto"), env, work);
        return new Result(docs.size(), articles, lexical, cold, warm);
    }

    private static Path config(Path work, Path project, String retrieval) throws IOException {
        Path config = work.resolve("startup-" + retrieval + ".yaml");
        Files.writeString(config, """
                projects:
                  - name: split
                    source: {directory: "%s", include: ["*.md"]}
                    retrieval: %s
                """.formatted(project.toAbsolutePath(), retrieval));
        return config;
    }

    private static Start start(String pod, Path config, Map<String, String> env, Path work) throws Exception {
        Path log = work.resolve(pod.replaceAll("[^a-z]+", "-") + ".log");
        try (ServerProcess server = ServerProcess.start(config, env, log)) {
            long resident = ProcessMemory.statusField(Path.of("/proc/" + server.pid() + "/status"), "VmRSS:");
            Matcher m = VECTORS.matcher(Files.readString(log));
            int fromCache = 0;
            int embedded = 0;
            double embedSeconds = 0;
            if (m.find()) {
                fromCache = Integer.parseInt(m.group(2));
                embedded = Integer.parseInt(m.group(3));
                embedSeconds = Integer.parseInt(m.group(4)) / 1000.0;
            }
            Start s = new Start(pod, server.startToReadySeconds, resident, fromCache, embedded, embedSeconds);
            System.err.printf(Locale.ROOT, "startup %s: ready in %.1f s, %d MiB resident, %d vectors from cache, %d embedded%n", pod,
                    s.startToReadySeconds(), resident >> 20, fromCache, embedded);
            return s;
        }
    }
}
