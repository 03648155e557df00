package io.ragsearch.contract.settings;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The bounds and names both programs check; compile-time constants where the operator's CRD
 * annotations need them.
 */
public final class Bounds {
    /** A DNS label's alphabet plus '.' and '_': names become ConfigMap keys, directory names and label values. */
    public static final String PROJECT_NAME_REGEX = "^[a-z0-9][a-z0-9._-]{0,62}$";
    public static final Pattern PROJECT_NAME = Pattern.compile(PROJECT_NAME_REGEX);
    public static final int PROJECT_NAME_MAX_LENGTH = 63;

    /** Encoders (embedding models and cross-encoders) alike: below 8 no question fits, above 8192 no model we know. */
    public static final int MAX_SEQ_LEN_MIN = 8;
    public static final int MAX_SEQ_LEN_MAX = 8192;
    /**
     * ONNX Runtime threads of one rerank run: more than any node's cores gains nothing, and each
     * thread costs memory at session creation (100000 grew a server to 3.9 GB without starting).
     */
    public static final int INTRA_OP_THREADS_MAX = 256;

    /**
     * Threads of the tool pool (and of the rerank lane, one per rerank permit): tool work is
     * CPU-bound, so past a node's cores they only wait inside the OS, and each costs a stack.
     */
    public static final int TOOL_THREADS_MAX = 1024;
    /**
     * Calls waiting for a tool thread. The queue is allocated whole at start (2000000000 ended in
     * an out-of-memory crash), each waiting call can hold a request body of up to 1 MiB, and a
     * call behind ten thousand others waits minutes: "busy, retry" serves it better.
     */
    public static final int TOOL_QUEUE_MAX = 10_000;
    /** Requests served at once: at most every tool thread busy and every queue place taken. */
    public static final int MAX_IN_FLIGHT_MAX = TOOL_THREADS_MAX + TOOL_QUEUE_MAX;

    public static final List<String> LANGUAGES = List.of("auto", "ko", "en");
    public static final String LANGUAGE_REGEX = "^(auto|ko|en)$";
    public static final List<String> RETRIEVAL_MODES = List.of("auto", "lexical", "vector", "hybrid");
    public static final String RETRIEVAL_REGEX = "^(auto|lexical|vector|hybrid)$";
    /** mean: e5, sentence-transformers; cls: bge; last: decoder-based embedders (the last token has read the whole text). */
    public static final List<String> POOLINGS = List.of("mean", "cls", "last");
    public static final String POOLING_REGEX = "^(mean|cls|last)$";
    /** How a cross-encoder's logits become a relevance in [0, 1] (auto: sigmoid of one logit, softmax of two). */
    public static final List<String> SCORE_MAPPINGS = List.of("auto", "sigmoid", "softmax", "none");
    public static final String SCORE_MAPPING_REGEX = "^(auto|sigmoid|softmax|none)$";
    /** A query or passage prefix: a few words the model was trained with ("query: ", "Represent this sentence …: "). */
    public static final int PREFIX_MAX_LENGTH = 256;
    /** An ONNX output name. */
    public static final int OUTPUT_NAME_MAX_LENGTH = 256;
    /** A declared embedding width: above this no model we know (the largest give 4096). */
    public static final int DIMENSION_MAX = 16_384;
    /** Classes of a cross-encoder's output a relevance may be read from. */
    public static final int POSITIVE_CLASS_MAX = 15;
    /** ONNX Runtime's memory mode: arena shrunk after each run (default), kept, or no arena. */
    public static final List<String> ARENAS = List.of("shrink", "keep", "off");

    public static final double GATE_MIN = 0.0;
    public static final double GATE_MAX = 1.0;

    /** 0 = any free port (tests and the bench). */
    public static final int PORT_MIN = 0;
    public static final int PORT_MAX = 65535;

    /** How /mcp callers are authenticated: one static bearer token, or JWTs checked against a JWKS. */
    public static final List<String> AUTH_MODES = List.of("static", "jwt");
    public static final String AUTH_MODE_REGEX = "^(static|jwt)$";
    /**
     * The signature algorithms a JWT may use: asymmetric only. "none" is no signature, and an HMAC
     * (HS*) checked with a public key turns that public key into the secret (the classic key-confusion attack).
     */
    public static final List<String> JWT_ALGORITHMS = List.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
            "ES256", "ES384", "ES512");
    /** Clocks of the issuer and this server may differ by this much at most; a minute is usual, five the most that makes sense. */
    public static final int CLOCK_SKEW_MAX_SECONDS = 300;
    /** A ServiceAccount as an access rule names it: namespace:name, or namespace:* for every one of the namespace. */
    public static final String SERVICE_ACCOUNT_REGEX = "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?:(\\*|[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?)$";
    public static final Pattern SERVICE_ACCOUNT = Pattern.compile(SERVICE_ACCOUNT_REGEX);

    private Bounds() {
    }
}
