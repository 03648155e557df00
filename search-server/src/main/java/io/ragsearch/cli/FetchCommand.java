package io.ragsearch.cli;

import io.ragsearch.fetch.ModelFetcher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** The init container's command for models given by URL (the operator writes its arguments). */
@Command(name = "fetch", mixinStandardHelpOptions = true,
        description = "Download a model archive (.zip of model.onnx + tokenizer.json), check its sha256, unpack it.")
final class FetchCommand implements Callable<Integer> {

    @Option(names = "--url", required = true, description = "http(s) URL of the .zip archive")
    URI url;

    @Option(names = "--sha256", required = true, description = "hex sha256 of the archive")
    String sha256;

    @Option(names = "--to", required = true, description = "directory to unpack into: absent, empty, or one an earlier fetch made (it is replaced as a whole)")
    Path to;

    @Option(names = "--max-bytes", defaultValue = "4294967296", description = "largest archive accepted (default 4 GiB)")
    long maxBytes;

    @Option(names = "--max-unpacked-bytes", defaultValue = "8589934592",
            description = "most the archive may unpack to (default 8 GiB)")
    long maxUnpackedBytes;

    @Option(names = "--deadline-seconds", defaultValue = "3600",
            description = "the most the whole download may take, however steadily the server sends (default 3600, an hour)")
    long deadlineSeconds;

    @Override
    public Integer call() throws Exception {
        ModelFetcher.Outcome outcome = new ModelFetcher(maxBytes, maxUnpackedBytes, java.time.Duration.ofSeconds(deadlineSeconds))
                .fetch(url, sha256, to);
        System.out.println(outcome == ModelFetcher.Outcome.FETCHED
                ? "fetched " + ModelFetcher.shown(url) + " into " + to + " (sha256 verified)"
                : to + " already holds the model with sha256 " + sha256 + "; nothing to do");
        return 0;
    }
}
