package io.ragsearch.query;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;

/**
 * Everyday words mapped to the terms the documents use ("잘리다" → 해고, "월급" → 임금): the
 * lexical leg's bridge for paraphrased questions when no embedding model represents the
 * language. Both sides are analysed with the project's analyzer, so rules match analysed query
 * terms. Rules are one a line, {@code word, word => term term}.
 */
public final class Thesaurus {

    static final String BUILTIN_KOREAN = "thesaurus-ko.txt";

    /** Left side (its analysed terms, all of which must occur) → the terms it brings in; keys split once, at load. */
    private final Map<List<String>, Set<String>> expansions;

    private Thesaurus(Map<List<String>, Set<String>> expansions) {
        this.expansions = expansions;
    }

    public static Thesaurus empty() {
        return new Thesaurus(Map.of());
    }

    /** The built-in Korean rules, analysed with the project's Korean analyzer. */
    public static Thesaurus builtinKorean(Analyzer analyzer) {
        try (InputStream in = Thesaurus.class.getResourceAsStream(BUILTIN_KOREAN)) {
            if (in == null) {
                throw new IllegalStateException("the built-in thesaurus " + BUILTIN_KOREAN + " is missing from the jar");
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList(), analyzer);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Thesaurus parse(List<String> lines, Analyzer analyzer) {
        Map<List<String>, Set<String>> out = new HashMap<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int arrow = line.indexOf("=>");
            if (arrow < 0) {
                throw new IllegalArgumentException("thesaurus rule without '=>': " + line);
            }
            List<String> targets = Tokens.termList(analyzer, CorpusStatistics.BODY_FIELD, line.substring(arrow + 2));
            for (String word : line.substring(0, arrow).split(",")) {
                // A left side analysed to several terms ("쉬는시간" → 쉬, 시간) matches when all of them occur.
                List<String> keys = Tokens.termList(analyzer, CorpusStatistics.BODY_FIELD, word);
                if (keys.isEmpty()) {
                    continue;
                }
                Set<String> set = out.computeIfAbsent(List.copyOf(keys), k -> new LinkedHashSet<>());
                for (String t : targets) {
                    if (!keys.contains(t)) {
                        set.add(t);
                    }
                }
            }
        }
        return new Thesaurus(out);
    }

    /**
     * The extra terms for a query's analysed terms: every rule whose left side (one term, or
     * several terms that all occur in the query) matches.
     */
    public Set<String> expand(List<String> queryTerms) {
        Set<String> out = new LinkedHashSet<>();
        Set<String> present = Set.copyOf(queryTerms);
        for (Map.Entry<List<String>, Set<String>> e : expansions.entrySet()) {
            if (present.containsAll(e.getKey())) {
                out.addAll(e.getValue());
            }
        }
        out.removeAll(present);
        return out;
    }

    /** The terms that a single query term brings in (for coverage: a slot is covered by the term or any of these). */
    public List<String> alternatives(String term) {
        Set<String> s = expansions.get(List.of(term));
        return s == null ? List.of() : new ArrayList<>(s);
    }
}
