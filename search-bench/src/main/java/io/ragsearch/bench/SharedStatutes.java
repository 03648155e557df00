package io.ragsearch.bench;

import java.nio.file.Path;

/** Where the benches find the Korean statutes when --ko is not given. */
final class SharedStatutes {

    private SharedStatutes() {
    }

    /** {@code given}, else $RAGSEARCH_SHARED_CORPUS, else ../shared/corpus/ko-statutes. */
    static Path directory(Path given) {
        if (given != null) {
            return given;
        }
        String env = System.getenv("RAGSEARCH_SHARED_CORPUS");
        return env != null ? Path.of(env) : Path.of("../shared/corpus/ko-statutes");
    }
}
