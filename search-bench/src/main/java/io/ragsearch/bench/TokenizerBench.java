package io.ragsearch.bench;

import io.ragsearch.corpus.CorpusLoader;
import io.ragsearch.embed.EmbeddingModel;
import io.ragsearch.embed.TextTokenizer;
import io.ragsearch.embed.TokenEncoding;
import io.ragsearch.embed.Tokenizers;
import io.ragsearch.embed.unigram.UnigramTokenizer;
import io.ragsearch.index.IndexBuilder;
import io.ragsearch.metrics.ProcessMemory;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The built-in model's two tokenizers side by side: our Unigram tokenizer and the Rust library
 * through DJL. Memory is measured in a fresh JVM per tokenizer (this jar started again with
 * {@code --child}), with the server's heap limit: resident memory and heap in use after a full
 * collection, before and after loading (and one encoding, so lazily built parts count). Speed is
 * measured in this process on the statutes as the embedder tokenizes them (passage prefix, model
 * length, batches of 16), the two alternating round by round; wall time and process CPU time,
 * since the Rust library may tokenize a batch on several threads.
 */
@Command(name = "tokenizer", mixinStandardHelpOptions = true,
        description = {"Tokenizer figures for the built-in multilingual model: resident memory (fresh JVM each) and tokens/s "
                + "on the Korean statutes, our Unigram tokenizer vs the Rust tokenizers library (DJL).",
                "Exit status 1 when the two give different ids on any article."})
public final class TokenizerBench implements Callable<Integer> {

    /** The heap limit the server is run with in the documented memory figure. */
    static final String CHILD_HEAP = "-Xmx256m";
    private static final int BATCH = 16;
    private static final long WARM_UP_TOKENS = 300_000;
    /** Each timed pass lasts at least this long: many ticks of the process CPU clock. */
    private static final long MIN_MEASURE_NANOS = 250_000_000L;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--ko", paramLabel = "DIR", description = "Korean statutes (default $RAGSEARCH_SHARED_CORPUS or ../shared/corpus/ko-statutes).")
    Path ko;

    @Option(names = "--articles", paramLabel = "N", description = "Only the first N live articles (default: all).")
    int articles;

    @Option(names = "--rounds", paramLabel = "N", description = "Timed rounds per tokenizer, alternating (default 5).")
    int rounds = 5;

    @Option(names = "--child", hidden = true, description = "Internal: load one tokenizer (ours or rust) and print its memory.")
    String child;

    record Memory(String which, long rssBefore, long rssAfter, long heapBefore, long heapAfter, long loadMillis) {

        static Memory parse(String line) {
            String[] f = line.trim().split(" ");
            if (f.length != 7 || !f[0].equals("memory")) {
                throw new IllegalStateException("unexpected child output: " + line);
            }
            return new Memory(f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
                    Long.parseLong(f[6]));
        }

        String line() {
            return String.join(" ", "memory", which, Long.toString(rssBefore), Long.toString(rssAfter), Long.toString(heapBefore),
                    Long.toString(heapAfter), Long.toString(loadMillis));
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        EmbeddingModel model = EmbeddingBench.installedE5();
        byte[] json = model.files().readTokenizer();
        int max = model.settings().maxSeqLen();
        if (child != null) {
            out.println(loadAndMeasure(child, json, max).line());
            out.flush();
            return 0;
        }
        Memory ours = inFreshJvm("ours");
        Memory rust = inFreshJvm("rust");

        var corpus = EmbeddingBench.firstArticles(new CorpusLoader(false, List.of("*.md"))
                .load("ko-statutes", SharedStatutes.directory(ko)).corpus(), articles);
        List<String> texts = IndexBuilder.embeddingTexts(corpus).stream().map(t -> model.settings().passagePrefix() + t).toList();
        if (texts.isEmpty()) {
            throw new IllegalStateException("no articles to tokenize");
        }
        try (TextTokenizer a = Tokenizers.fromJson(json, max); TextTokenizer b = Tokenizers.djl(json, max)) {
            int differing = 0;
            long tokens = 0;
            for (String t : texts) {
                TokenEncoding x = a.encode(t);
                tokens += x.length();
                if (!Arrays.equals(x.ids(), b.encode(t).ids())) {
                    differing++;
                }
            }
            // Warm-up before timing: the JIT compiles our tokenizer as it runs (the Rust library's is compiled
            // ahead), and a short corpus would otherwise time mostly the interpreter.
            for (TextTokenizer t : List.of(a, b)) {
                for (long warmed = 0; warmed < WARM_UP_TOKENS; warmed += tokens) {
                    tokenizeAsTheEmbedderDoes(t, texts);
                }
            }
            long[] wall = new long[2];
            long[] cpu = new long[2];
            long[] done = new long[2];
            TextTokenizer[] both = {a, b};
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    int which = r % 2 == 0 ? k : 1 - k; // who goes first alternates
                    long c0 = processCpuNanos();
                    long w0 = System.nanoTime();
                    // The process's CPU time moves in scheduler ticks (10 ms here): a pass over a small corpus
                    // (3 ms for ours) can read as zero CPU, so each side runs for at least MIN_MEASURE.
                    do {
                        tokenizeAsTheEmbedderDoes(both[which], texts);
                        done[which] += tokens;
                    } while (System.nanoTime() - w0 < MIN_MEASURE_NANOS);
                    wall[which] += System.nanoTime() - w0;
                    cpu[which] += processCpuNanos() - c0;
                }
            }
            double oursWall = done[0] / (wall[0] / 1e9);
            double rustWall = done[1] / (wall[1] / 1e9);
            double oursCpu = done[0] / (Math.max(1, cpu[0]) / 1e9);
            double rustCpu = done[1] / (Math.max(1, cpu[1]) / 1e9);
            out.printf(Locale.ROOT, "tokenizer: %s (%s), %d articles, %d tokens (passage prefix, max %d)%n",
                    model.builtin(), a instanceof UnigramTokenizer u ? "ours: " + u.describe() : a.getClass().getSimpleName(),
                    texts.size(), tokens, max);
            out.printf(Locale.ROOT, "memory, fresh JVM each (%s), after load and a full GC:%n", CHILD_HEAP);
            for (Memory m : List.of(ours, rust)) {
                out.printf(Locale.ROOT, "  %-4s  RSS %4d -> %4d MiB (+%d MiB), heap in use +%d MiB, load %d ms%n", m.which(),
                        m.rssBefore() >> 20, m.rssAfter() >> 20, (m.rssAfter() - m.rssBefore()) >> 20,
                        (m.heapAfter() - m.heapBefore()) >> 20, m.loadMillis());
            }
            out.printf(Locale.ROOT, "speed, %d rounds alternating, batches of %d as the embedder tokenizes:%n", rounds, BATCH);
            out.printf(Locale.ROOT, "  ours  %,.0f tokens/s wall, %,.0f tokens per CPU-second%n", oursWall, oursCpu);
            out.printf(Locale.ROOT, "  rust  %,.0f tokens/s wall, %,.0f tokens per CPU-second%n", rustWall, rustCpu);
            out.printf(Locale.ROOT, "  ours/rust: %.2fx wall, %.2fx per CPU-second%n", oursWall / rustWall, oursCpu / rustCpu);
            out.printf(Locale.ROOT, "ids: %s%n", differing == 0 ? "identical on all " + texts.size() + " articles"
                    : differing + " of " + texts.size() + " articles differ");
            out.flush();
            return differing == 0 ? 0 : 1;
        }
    }

    private static void tokenizeAsTheEmbedderDoes(TextTokenizer t, List<String> texts) {
        for (int from = 0; from < texts.size(); from += BATCH) {
            t.encodeAll(texts.subList(from, Math.min(texts.size(), from + BATCH)));
        }
    }

    /**
     * In the child: RSS and heap after a full GC, before and after loading one tokenizer and
     * encoding one text. The file's bytes are read before the first reading, so they are in both.
     */
    private static Memory loadAndMeasure(String which, byte[] json, int max) throws IOException {
        settle();
        long rss0 = ProcessMemory.residentBytes();
        long heap0 = heapInUse();
        long t0 = System.nanoTime();
        TextTokenizer t = switch (which) {
            case "ours" -> Tokenizers.fromJson(json, max);
            case "rust" -> Tokenizers.djl(json, max);
            default -> throw new IllegalArgumentException("--child ours or rust, not " + which);
        };
        t.encode("passage: 제1조(목적) 이 법은 근로조건의 기준을 정한다.");
        long loadMillis = (System.nanoTime() - t0) / 1_000_000;
        settle();
        Memory m = new Memory(which, rss0, ProcessMemory.residentBytes(), heap0, heapInUse(), loadMillis);
        t.encode("x"); // kept reachable until after the reading
        return m;
    }

    private static void settle() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
    }

    private static long heapInUse() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private Memory inFreshJvm(String which) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, CHILD_HEAP, "-cp", System.getProperty("java.class.path"),
                BenchCli.class.getName(), "tokenizer", "--child", which));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("the " + which + " tokenizer's memory probe failed: " + output);
        }
        return Memory.parse(output.lines().filter(l -> l.startsWith("memory ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no memory line from the " + which + " probe: " + output)));
    }
}
