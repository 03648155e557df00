package io.ragsearch.verification;

/**
 * One check of a checks file: what to ask a server, how to judge its answer against the
 * expectation, and how two servers' answers differ. Observing never throws: a failed call is an
 * observation with a failure.
 */
public sealed interface Check permits SearchCheck, ListProjectsCheck, ListDocumentsCheck, ReadArticleCheck, ErrorCheck,
        SchemasCheck, HealthCheck {

    String id();

    /** The kind as written in the file: search, list_projects, … */
    String kind();

    /** What is asked and expected, in a few words, for reports. */
    String describe();

    Observation observe(Side side);

    /**
     * Why the answer does not meet the expectation, or null when it does.
     *
     * @param baseline the baseline's answer when there is one (only schemas compares with it), else null
     */
    String problem(Observation own, Observation baseline);

    /** How the two answers differ, in a few words ("rank 1 → 4"), or null when they do not. */
    String difference(Observation baseline, Observation candidate);

    /** The default difference: the rows' words, when the compared facts differ or only one side failed. */
    static String shownDifference(Observation baseline, Observation candidate, Object baselineKey, Object candidateKey) {
        if (baseline.failed() || candidate.failed()) {
            return baseline.shown().equals(candidate.shown()) ? null : baseline.shown() + " → " + candidate.shown();
        }
        return baselineKey.equals(candidateKey) ? null : baseline.shown() + " → " + candidate.shown();
    }
}
