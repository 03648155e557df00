package io.ragsearch.contract.settings;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingsRulesTest {

    private static ServerSettings.Project project(String name, String directory) {
        return ServerSettings.Project.ofDirectory(name, directory);
    }

    private static ServerSettings withProjects(List<ServerSettings.Project> projects) {
        return ServerSettings.EMPTY.withProjects(projects);
    }

    @Test
    void aPlainFileHasNoProblems() {
        assertEquals(List.of(), SettingsRules.problems(withProjects(List.of(project("handbook", "/docs")))));
    }

    /** A model of your own: the vector and score settings a platform team sets are checked by field. */
    @Test
    void ownModelSettingsAreCheckedByField() {
        ServerSettings own = withProjects(List.of(project("rules", "/docs").withReranker(ServerSettings.RerankerRef.ofPath("bge-reranker")
                .withScoreMapping("softmax").withPositiveClass(1)))).withModels(new ServerSettings.Models(
                ServerSettings.ModelRef.ofPath("bge-m3").withPooling("last").withDimension(1024)));
        assertEquals(List.of(), SettingsRules.problems(own));

        ServerSettings bad = withProjects(List.of(
                project("a", "/docs").withReranker(ServerSettings.RerankerRef.ofPath("r").withPositiveClass(1)),
                project("b", "/docs").withReranker(ServerSettings.RerankerRef.ofPath("r").withScoreMapping("logit")),
                project("c", "/docs").withReranker(ServerSettings.RerankerRef.ofBuiltin("minilm-pair").withScoreMapping("sigmoid")),
                project("d", "/docs").withReranker(ServerSettings.RerankerRef.ofPath("r").withScoreMapping("none").withPositiveClass(16))))
                .withModels(new ServerSettings.Models(ServerSettings.ModelRef.ofPath("m").withPooling("max").withDimension(0)));
        assertEquals(List.of(
                "models.embedding.pooling must be one of [mean, cls, last] (got 'max')",
                "models.embedding.dimension must be 1..16384 (the length of the model's vectors), got 0",
                "projects[0].reranker.positiveClass needs scoreMapping sigmoid, softmax or none: auto reads class 1 of two itself",
                "projects[1].reranker.scoreMapping must be one of [auto, sigmoid, softmax, none] (got 'logit')",
                "projects[2].reranker: scoreMapping and positiveClass are for a cross-encoder of your own (path); "
                        + "a built-in is a cost stand-in whose scores are never used",
                "projects[3].reranker.positiveClass must be 0..15 (an index into the model's logits), got 16"), SettingsRules.problems(bad));
    }

    /** A database project reads what ingest stored: a directory's settings on it would be ignored, so they are refused. */
    @Test
    void aDatabaseProjectRefusesTheDirectorysSettings() {
        ServerSettings onDatabase = ServerSettings.EMPTY.withDatabase(ServerSettings.Database.at("jdbc:postgresql://db/ragsearch"));
        ServerSettings plain = onDatabase.withProjects(List.of(ServerSettings.Project.fromDatabase("statutes")));
        assertEquals(List.of(), SettingsRules.problems(plain));

        ServerSettings withDirectory = onDatabase.withProjects(List.of(ServerSettings.Project.fromDatabase("statutes")
                .withSource(ServerSettings.Source.ofDirectory("/docs").withInclude(List.of("*.md")).withDatabase(true))
                .withIncludeAddenda(true)));
        assertEquals(List.of("projects[0] reads the database: source.directory, source.include and includeAddenda apply to "
                + "directory projects only (ingest --include / --include-addenda choose what the database holds)"),
                SettingsRules.problems(withDirectory));
    }

    /** The one port rule: the server's listeners take their ports as this rule left them. */
    @Test
    void portsOutsideTheirRangeAreRefused() {
        ServerSettings s = withProjects(List.of(project("handbook", "/docs")))
                .withServer(ServerSettings.Server.EMPTY.withMcpPort(70000).withAdminPort(-1));
        assertEquals(List.of("server.mcpPort must be 0..65535 (0 = any free port), got 70000",
                "server.adminPort must be 0..65535 (0 = any free port), got -1"), SettingsRules.problems(s));
    }

    @Test
    void listsEveryProblemWithItsFieldPath() {
        ServerSettings s = ServerSettings.EMPTY
                .withServer(ServerSettings.Server.EMPTY.withMcpPort(8080).withAdminPort(8080).withToolThreads(0))
                .withModels(new ServerSettings.Models(ServerSettings.ModelRef.ofBuiltin("all-minilm-l6-v2").withPath("/m")
                        .withPooling("max").withMaxSeqLen(4).withOutput(" ")))
                .withRerank(ServerSettings.Rerank.EMPTY.withConcurrency(0).withArena("huge").withCalibrationLevels(List.of(1, 0))
                        .withRetune(new ServerSettings.Retune(0, null, 100, null)))
                .withDatabase(ServerSettings.Database.EMPTY.withPollSeconds(0))
                .withProjects(List.of(ServerSettings.Project.fromDatabase("Bad Name").withLanguage("korean").withRetrieval("semantic")
                                .withThreshold(1.5).withReranker(ServerSettings.RerankerRef.EMPTY.withMaxSeqLen(9000)),
                        project("dup", "/a"), project("dup", "/b")));
        List<String> problems = SettingsRules.problems(s);
        List<String> expectedStarts = List.of(
                "server.mcpPort and server.adminPort must differ",
                "server.toolThreads must be at least 1",
                "rerank.concurrency (RAGSEARCH_RERANK_CONCURRENCY) must be at least 1",
                "rerank.calibrationLevels must be at least 1",
                "rerank.arena must be one of [shrink, keep, off]",
                "rerank.retune.fixed must be at least 1",
                "rerank.retune.headroomPercent must be in [0, 100), got 100",
                "models.embedding needs exactly one of builtin or path",
                "models.embedding.pooling must be one of [mean, cls, last]",
                "models.embedding.maxSeqLen must be 8..8192 tokens",
                "models.embedding.output must name a model output",
                "database.pollSeconds must be at least 1",
                "projects[0].name must be 1 to 63 lower-case letters",
                "projects[0].source.database needs database.url",
                "projects[0].language must be one of [auto, ko, en]",
                "projects[0].retrieval must be one of [auto, lexical, vector, hybrid]",
                "projects[0].reranker needs exactly one of builtin or path",
                "projects[0].reranker.maxSeqLen must be 8..8192 tokens (got 9000)",
                "projects[0].gate.threshold must lie in [0, 1] (got 1.5)",
                "projects[2].name 'dup' is used twice");
        assertEquals(expectedStarts.size(), problems.size(), String.join("\n", problems));
        for (int i = 0; i < expectedStarts.size(); i++) {
            assertTrue(problems.get(i).startsWith(expectedStarts.get(i)), problems.get(i));
        }
    }

    /** Issue 32: toolQueue 2000000000 passed the rules and the server ended in an out-of-memory crash allocating it. */
    @Test
    void poolSizesHaveAnUpperBoundWithTheReason() {
        ServerSettings s = withProjects(List.of(project("handbook", "/docs")))
                .withServer(ServerSettings.Server.EMPTY.withToolQueue(2_000_000_000).withToolThreads(100_000).withMaxInFlightRequests(50_000))
                .withRerank(ServerSettings.Rerank.EMPTY.withConcurrency(5000));
        assertEquals(List.of(
                "server.toolThreads must be at most 1024 (tool work is CPU-bound: more threads than cores only wait), got 100000",
                "server.toolQueue must be at most 10000 (calls waiting for a tool thread; the queue is allocated at start, past it "
                        + "calls are answered \"busy, retry\"), got 2000000000",
                "server.maxInFlightRequests must be at most 11024 (every tool thread and queue place at their maximum), got 50000",
                "rerank.concurrency (RAGSEARCH_RERANK_CONCURRENCY) must be at most 1024 (a rerank lane thread for each), got 5000"),
                SettingsRules.problems(s));
        assertEquals(List.of(), SettingsRules.problems(withProjects(List.of(project("handbook", "/docs"))).withServer(
                ServerSettings.Server.EMPTY.withToolQueue(Bounds.TOOL_QUEUE_MAX).withToolThreads(Bounds.TOOL_THREADS_MAX))));
    }

    @Test
    void nothingToServeIsAProblemUnlessADatabaseIs() {
        assertEquals(List.of("no projects: give at least one under projects (or --project NAME=DIR), or a database"),
                SettingsRules.problems(withProjects(null)));
        assertEquals(List.of(), SettingsRules.problems(ServerSettings.EMPTY.withDatabase(ServerSettings.Database.at("jdbc:postgresql://db/rag"))));
    }

    @Test
    void singleFieldRulesShareTheBounds() {
        assertNull(SettingsRules.projectName("p", "a".repeat(63)));
        assertTrue(SettingsRules.projectName("p", "a".repeat(64)).startsWith("p must be 1 to 63"));
        assertTrue(SettingsRules.projectName("p", "x".repeat(5000)).length() < 300, "a long name is cut in the message");
        assertNull(SettingsRules.maxSeqLen("m", Bounds.MAX_SEQ_LEN_MIN));
        assertNull(SettingsRules.maxSeqLen("m", Bounds.MAX_SEQ_LEN_MAX));
        assertTrue(SettingsRules.maxSeqLen("m", Bounds.MAX_SEQ_LEN_MIN - 1) != null);
        assertNull(SettingsRules.gateThreshold("g", 0.0));
        assertTrue(SettingsRules.gateThreshold("g", Double.NaN) != null);
        assertNull(SettingsRules.choice("l", "KO", Bounds.LANGUAGES));
        assertNull(SettingsRules.intraOpThreads("t", Bounds.INTRA_OP_THREADS_MAX));
        assertEquals("t must be 1..256, got 257", SettingsRules.intraOpThreads("t", Bounds.INTRA_OP_THREADS_MAX + 1));
        assertTrue(SettingsRules.intraOpThreads("t", 0) != null);
        for (String lang : Bounds.LANGUAGES) {
            assertTrue(lang.matches(Bounds.LANGUAGE_REGEX));
        }
        for (String mode : Bounds.RETRIEVAL_MODES) {
            assertTrue(mode.matches(Bounds.RETRIEVAL_REGEX));
        }
        assertTrue("a".repeat(63).matches(Bounds.PROJECT_NAME_REGEX));
        assertTrue(!"a".repeat(64).matches(Bounds.PROJECT_NAME_REGEX));
    }

    private static final ServerSettings.Access HR = ServerSettings.Access.EMPTY.withProjects(List.of("hr"))
            .withServiceAccounts(List.of("agents:hr-bot", "ops:*"));
    private static final ServerSettings.Auth JWT = ServerSettings.Auth.EMPTY.withMode("jwt")
            .withIssuer("https://kubernetes.default.svc.cluster.local").withAudiences(List.of("ragsearch")).withAccess(List.of(HR));

    private static List<String> authProblems(ServerSettings.Auth auth) {
        return SettingsRules.problems(withProjects(List.of(project("hr", "/docs"))).withAuth(auth));
    }

    @Test
    void aJwtSectionWithIssuerAudienceAndARuleHasNoProblems() {
        assertEquals(List.of(), authProblems(JWT));
        assertEquals(List.of(), authProblems(JWT.withJwksUrl("https://127.0.0.1:6443/openid/v1/jwks").withAlgorithms(List.of("RS256", "ES256"))
                .withClockSkewSeconds(0).withScopes(List.of("ragsearch.read"))));
        assertEquals(List.of(), authProblems(ServerSettings.Auth.EMPTY.withMode("static")));
    }

    /** none and HS* never verify anything an issuer signed with a private key: refused with the reason. */
    @Test
    void unsafeAlgorithmsAndOpenDoorsAreRefused() {
        for (String alg : List.of("none", "HS256", "HS512", "rs256")) {
            List<String> problems = authProblems(JWT.withAlgorithms(List.of(alg)));
            assertEquals(1, problems.size(), alg + ": " + problems);
            assertTrue(problems.get(0).startsWith("auth.algorithms: '" + alg + "' is not allowed"), problems.get(0));
        }
        assertTrue(authProblems(JWT.withAudiences(List.of())).get(0).startsWith("auth.audiences needs at least one"));
        assertTrue(authProblems(JWT.withAccess(List.of())).get(0).startsWith("auth.access is empty"));
        assertTrue(authProblems(JWT.withIssuer("http://issuer.example")).get(0).startsWith("auth.issuer must be https"));
        assertEquals(List.of(), authProblems(JWT.withIssuer("http://127.0.0.1:8443")), "plain http to loopback (tests)");
        assertTrue(authProblems(JWT.withJwksUrl("https://user:pw@keys.example/jwks")).get(0).startsWith("auth.jwksUrl must be an https URL"));
        assertTrue(authProblems(JWT.withClockSkewSeconds(301)).get(0).startsWith("auth.clockSkewSeconds must be 0..300"));
        assertTrue(authProblems(JWT.withMode(null)).get(0).startsWith("auth.mode is required"));
        assertTrue(authProblems(JWT.withMode("oauth")).get(0).startsWith("auth.mode must be one of [static, jwt]"));
        assertTrue(authProblems(ServerSettings.Auth.EMPTY.withMode("static").withAccess(List.of(HR))).get(0)
                .startsWith("auth.mode static takes its token from RAGSEARCH_AUTH_TOKEN"));
    }

    @Test
    void accessRulesNameProjectsAndSomebody() {
        assertEquals(List.of("auth.access[0] names nobody: give serviceAccounts, groups, subjects or claims"),
                authProblems(JWT.withAccess(List.of(ServerSettings.Access.EMPTY.withProjects(List.of("hr"))))));
        assertEquals(List.of("auth.access[0].projects needs at least one project name (or \"*\" for all)"),
                authProblems(JWT.withAccess(List.of(HR.withProjects(List.of())))));
        assertEquals(List.of("auth.access[0].serviceAccounts: 'hr-bot' is not namespace:name (or namespace:*)"),
                authProblems(JWT.withAccess(List.of(HR.withServiceAccounts(List.of("hr-bot"))))));
        assertEquals(List.of("auth.access[0].claims: each needs a name and a value"),
                authProblems(JWT.withAccess(List.of(HR.withClaims(List.of(new ServerSettings.ClaimMatch("", "x")))))));
        assertEquals(List.of(), authProblems(JWT.withAccess(List.of(HR.withProjects(List.of("*")).withServiceAccounts(null)
                .withGroups(List.of("system:serviceaccounts:agents"))))));
    }
}
