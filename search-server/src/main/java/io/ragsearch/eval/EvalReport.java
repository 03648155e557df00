package io.ragsearch.eval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Prints eval summaries for a person (a table per question set) or for machines (JSON-ready maps). */
public final class EvalReport {

    private EvalReport() {
    }

    /** A floor on one metric: {@code hit5 >= 0.8}, or {@code paraphrase.mrr >= 0.3}. */
    public record Floor(String metric, double min) {
        public static Floor parse(String text) {
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw new EvalException("--min takes METRIC=VALUE (e.g. hit5=0.8 or paraphrase.mrr=0.3), got '" + text + "'");
            }
            try {
                return new Floor(text.substring(0, eq).strip(), Double.parseDouble(text.substring(eq + 1).strip()));
            } catch (NumberFormatException e) {
                throw new EvalException("--min " + text + ": the value is not a number");
            }
        }
    }

    /** A floor's verdict on one summary; a metric with no questions behind it (NaN) fails. */
    public record Verdict(String set, Floor floor, double value, boolean met) {
        static Verdict of(EvalSummary s, Floor f) {
            double v = s.metric(f.metric());
            return new Verdict(s.set(), f, v, !Double.isNaN(v) && v >= f.min() - 1e-9);
        }
    }

    public static List<Verdict> judge(EvalSummary summary, List<Floor> floors) {
        return floors.stream().map(f -> Verdict.of(summary, f)).toList();
    }

    /** One table: a row per kind and backend, then all answerable, then unanswerable. */
    public static String table(List<EvalSummary> sameSet) {
        StringBuilder out = new StringBuilder();
        EvalSummary first = sameSet.get(0);
        int total = first.answerable().questions() + first.unanswerable().questions();
        out.append(String.format(Locale.ROOT, "set %s: %d questions (%d answerable, %d unanswerable)%n", first.set(), total,
                first.answerable().questions(), first.unanswerable().questions()));
        int nameWidth = Math.max(9, sameSet.stream().mapToInt(s -> s.backend().length()).max().orElse(9));
        String header = String.format(Locale.ROOT, "%-13s %4s  %-" + nameWidth + "s  %6s %6s %6s %7s %6s %8s%n",
                "kind", "n", "search", "hit@1", "hit@5", "hit@10", "MRR@10", "kept", "refused");
        out.append(header);
        for (String kind : first.byKind().keySet()) {
            for (EvalSummary s : sameSet) {
                out.append(row(kind, s.byKind().get(kind), s.backend(), nameWidth));
            }
        }
        for (EvalSummary s : sameSet) {
            out.append(row("answerable", s.answerable(), s.backend(), nameWidth));
        }
        for (EvalSummary s : sameSet) {
            out.append(row("unanswerable", s.unanswerable(), s.backend(), nameWidth));
        }
        for (EvalSummary s : sameSet) {
            out.append(String.format(Locale.ROOT, "latency %-" + nameWidth + "s  p50 %.1f ms, p95 %.1f ms%n", s.backend(),
                    s.p50Millis(), s.p95Millis()));
        }
        return out.toString();
    }

    private static String row(String kind, EvalSummary.Row r, String backend, int nameWidth) {
        if (r == null || r.questions() == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%-13s %4d  %-" + nameWidth + "s  %6s %6s %6s %7s %6s %8s%n", kind, r.questions(), backend,
                f(r.hit1()), f(r.hit5()), f(r.hit10()), f(r.mrr()), f(r.kept()), f(r.refused()));
    }

    private static String f(double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.3f", v);
    }

    public static String verdicts(List<Verdict> verdicts) {
        StringBuilder out = new StringBuilder();
        for (Verdict v : verdicts) {
            out.append(String.format(Locale.ROOT, "floor %s %s >= %.3f: %s (%s)%n", v.set(), v.floor().metric(), v.floor().min(),
                    v.met() ? "met" : "NOT MET", f(v.value())));
        }
        return out.toString();
    }

    /** The misses of a run, for tuning by hand: answerable questions not in the top 5 or refused, unanswerable ones answered. */
    public static String misses(String backend, List<QuestionResult> results) {
        StringBuilder out = new StringBuilder();
        for (QuestionResult r : results) {
            Question q = r.question();
            boolean miss = q.refused() ? !r.refused() : !r.hitAt(5);
            if (miss) {
                String what = q.refused() ? "answered" : r.refused() ? "refused" : r.rank() == 0 ? "not in top 10" : "rank " + r.rank();
                out.append(String.format(Locale.ROOT, "miss %s %-8s %-14s best %.3f  %s%n", backend, q.id(), what, r.bestScore(),
                        q.query()));
            }
        }
        return out.toString();
    }

    public static Map<String, Object> json(List<EvalSummary> summaries, List<Verdict> verdicts) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<Object> runs = new ArrayList<>();
        for (EvalSummary s : summaries) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("set", s.set());
            run.put("search", s.backend());
            Map<String, Object> kinds = new LinkedHashMap<>();
            s.byKind().forEach((k, r) -> kinds.put(k, row(r)));
            run.put("kinds", kinds);
            run.put("answerable", row(s.answerable()));
            run.put("unanswerable", row(s.unanswerable()));
            run.put("latencyMillis", Map.of("p50", round(s.p50Millis()), "p95", round(s.p95Millis())));
            runs.add(run);
        }
        out.put("runs", runs);
        List<Object> floors = new ArrayList<>();
        for (Verdict v : verdicts) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("set", v.set());
            f.put("metric", v.floor().metric());
            f.put("min", v.floor().min());
            f.put("value", Double.isNaN(v.value()) ? null : round(v.value()));
            f.put("met", v.met());
            floors.add(f);
        }
        out.put("floors", floors);
        out.put("passed", verdicts.stream().allMatch(Verdict::met));
        return out;
    }

    private static Map<String, Object> row(EvalSummary.Row r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("questions", r.questions());
        put(m, "hit1", r.hit1());
        put(m, "hit5", r.hit5());
        put(m, "hit10", r.hit10());
        put(m, "mrr", r.mrr());
        put(m, "kept", r.kept());
        put(m, "refused", r.refused());
        return m;
    }

    private static void put(Map<String, Object> m, String key, double v) {
        if (!Double.isNaN(v)) {
            m.put(key, round(v));
        }
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }
}
