package io.ragsearch.corpus;

import java.nio.file.Path;

/**
 * Loads a corpus directory and prints its document ids and problems, one a line ("doc " / "problem ");
 * run by {@link CorpusLoaderTest} in a child JVM as an unprivileged user when the tests run as root
 * (root reads any directory, so a permission problem needs another user to exist at all).
 */
public final class CorpusLoadMain {
    private CorpusLoadMain() {
    }

    public static void main(String[] args) throws Exception {
        CorpusLoader.LoadedCorpus loaded = new CorpusLoader(false).load("p", Path.of(args[0]));
        loaded.corpus().documents().forEach(d -> System.out.println("doc " + d.id()));
        loaded.problems().forEach(p -> System.out.println("problem " + p));
    }
}
