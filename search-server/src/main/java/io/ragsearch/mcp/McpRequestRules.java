package io.ragsearch.mcp;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a request to the stateless /mcp endpoint must look like before the SDK sees it, and
 * which protocol revision serves it: 2026-07-28 (the SDK's new server) when the request claims
 * it in {@code params._meta} or the MCP-Protocol-Version header, 2025-11-25 / 2025-06-18 (the
 * SDK's stateless server) otherwise. 2025-03-26 is not served: that revision requires JSON-RPC
 * batches, which neither server takes, so it is refused as unsupported rather than half served.
 * A request without the header is taken as 2025-11-25 (the specification says a server SHOULD
 * assume 2025-03-26; assuming a revision we do not serve would refuse every such client, and
 * 2025-11-25 is what our initialize negotiates). An unsupported version is -32022 with
 * {@code data: {supported, requested}}, as the 2026-07-28 revision defines it. The SDK
 * answers some malformed messages with a serialised Java stack trace (or a 500), so every shape
 * it cannot handle cleanly is refused here with a JSON-RPC error: -32700 for unparsable JSON,
 * -32600 for a message that is not a valid request, -32602 for parameters of the wrong kind.
 * Pure logic, so the fuzz tests drive it directly.
 */
public final class McpRequestRules {

    /** A refusal: HTTP status, JSON-RPC code and message, the request's id when it had a valid one, error data or null. */
    public record Rejection(int status, int code, String message, JsonNode id, Object data) {

        public Rejection(int status, int code, String message, JsonNode id) {
            this(status, code, message, id, null);
        }
    }

    /** A message that passed: which server takes it. */
    public record Accepted(JsonNode message, boolean modern) {
    }

    /** The 2026-07-28 revision: {@code server/discover}, {@code _meta} on every request. */
    public static final String MODERN_VERSION = "2026-07-28";
    /** Served by the SDK's stateless server. */
    public static final List<String> LEGACY_VERSIONS = List.of("2025-11-25", "2025-06-18");
    /** Every revision this endpoint serves, newest first (what {@code server/discover} lists). */
    public static final List<String> SUPPORTED_VERSIONS = List.of(MODERN_VERSION, "2025-11-25", "2025-06-18");
    /** What a request without an MCP-Protocol-Version header (and no {@code _meta} claim) is taken to speak. */
    static final String DEFAULT_PROTOCOL_VERSION = "2025-11-25";
    /** JSON-RPC code of an unsupported protocol version (2026-07-28), with data {supported, requested}. */
    public static final int UNSUPPORTED_VERSION = -32022;
    /** JSON-RPC code of a header that does not mirror the body (2026-07-28). */
    public static final int HEADER_MISMATCH = -32020;
    static final String META_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
    /** The longest method name of the protocol is about 40 characters. */
    static final int MAX_METHOD_CHARS = 128;
    private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    /** Deep nesting is how a parser is made to overflow its stack; no honest MCP message nests this deep. */
    private static final int MAX_NESTING = 64;
    /** A string id is echoed in the answer; a longer one is refused rather than echoed. */
    private static final int MAX_ID_CHARS = 256;
    private static final int MAX_ECHO = 60;
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .build()).build();

    private final List<String> supportedVersions;
    private final long maxBodyBytes;

    public McpRequestRules(List<String> supportedVersions, long maxBodyBytes) {
        this.supportedVersions = List.copyOf(supportedVersions);
        this.maxBodyBytes = maxBodyBytes;
    }

    public long maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * Checks the request line and headers; {@code contentLength} is -1 when unknown. The
     * protocol version is judged with the body ({@link #check}), where the request's id is known.
     */
    public Optional<Rejection> checkHeaders(String method, String contentType, String accept, String protocolVersion,
                                            long contentLength) {
        return checkHeaders(method, contentType, accept, contentLength, null);
    }

    /** As above, echoing {@code id} (the request's, when the body could be read) in the refusal. */
    public Optional<Rejection> checkHeaders(String method, String contentType, String accept, long contentLength, JsonNode id) {
        return checkRequestLine(method, contentLength).or(() -> checkMediaTypes(contentType, accept, id));
    }

    /** POST only, and a declared length within the limit: judged before the body is read. */
    public Optional<Rejection> checkRequestLine(String method, long contentLength) {
        if (!"POST".equals(method)) {
            return reject(405, -32600, "this stateless MCP endpoint takes POST only");
        }
        if (contentLength > maxBodyBytes) {
            return reject(413, -32600, "request body exceeds " + maxBodyBytes + " bytes");
        }
        return Optional.empty();
    }

    /** The media ranges an Accept header lists, without parameters: "application/jsonx" is not "application/json". */
    static java.util.Set<String> mediaRanges(String accept) {
        java.util.Set<String> ranges = new java.util.HashSet<>();
        for (String part : accept.split(",")) {
            int semicolon = part.indexOf(';');
            ranges.add((semicolon < 0 ? part : part.substring(0, semicolon)).strip().toLowerCase(java.util.Locale.ROOT));
        }
        return ranges;
    }

    /** Content-Type and Accept, judged once the body (and so the id to echo) has been read. */
    public Optional<Rejection> checkMediaTypes(String contentType, String accept, JsonNode id) {
        if (!isJson(contentType)) {
            return reject(415, -32600, "Content-Type must be application/json (charset utf-8 if given)", id);
        }
        if (accept == null || !(mediaRanges(accept).contains("application/json") && mediaRanges(accept).contains("text/event-stream"))) {
            return reject(406, -32600, "Accept must list application/json and text/event-stream", id);
        }
        return Optional.empty();
    }

    /** Exactly application/json, parameters allowed; a charset other than UTF-8 is not. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";", -1); // -1: ";;;" gives empty parts, not an empty array
        if (!parts[0].strip().equalsIgnoreCase("application/json")) {
            return false;
        }
        return Arrays.stream(parts).skip(1).map(p -> p.strip().toLowerCase(Locale.ROOT))
                .filter(p -> p.startsWith("charset="))
                .allMatch(p -> p.substring(8).replace("\"", "").equals("utf-8"));
    }

    /** The body without a leading UTF-8 byte-order mark (RFC 8259 lets a parser ignore one). */
    public static byte[] withoutBom(byte[] body) {
        if (body.length >= 3 && body[0] == UTF8_BOM[0] && body[1] == UTF8_BOM[1] && body[2] == UTF8_BOM[2]) {
            return Arrays.copyOfRange(body, 3, body.length);
        }
        return body;
    }

    /** Checks one message (BOM already removed) as sent with the newest legacy version's header. */
    public Optional<Rejection> checkBody(byte[] body) {
        return check(body, LEGACY_VERSIONS.get(0)).rejection();
    }

    /** A message's verdict: refused, or accepted for one of the two servers. */
    public record Verdict(Optional<Rejection> rejection, Accepted accepted) {
    }

    /** Checks one message (BOM already removed) sent with this MCP-Protocol-Version header (null: none). */
    public Verdict check(byte[] body, String protocolVersionHeader) {
        Verdict parsed = parse(body);
        if (parsed.rejection().isPresent()) {
            return parsed;
        }
        JsonNode message = parsed.accepted().message();
        Optional<Rejection> bad = checkMessage(message);
        if (bad.isPresent()) {
            return new Verdict(bad, null);
        }
        Verdict routed = route(message, protocolVersionHeader);
        // initialize is a 2025 method: 2026-07-28 removed it, and its server answers it as an unknown method.
        if (routed.accepted() != null && !routed.accepted().modern() && message.get("method").asString().equals("initialize")) {
            Optional<String> problem = initializeProblem(message.get("params"));
            if (problem.isPresent()) {
                return new Verdict(reject(400, -32602, problem.get(), echoableId(message)), null);
            }
        }
        return routed;
    }

    /** The id of a body that parses as a JSON-RPC object with a valid id; null otherwise (never throws). */
    public JsonNode readableId(byte[] body) {
        try {
            JsonNode message = JSON.readTree(body);
            return message == null ? null : echoableId(message);
        } catch (JacksonException | IllegalArgumentException e) {
            return null;
        }
    }

    private Verdict parse(byte[] body) {
        if (body.length > maxBodyBytes) {
            return new Verdict(reject(413, -32600, "request body exceeds " + maxBodyBytes + " bytes"), null);
        }
        // Decoded strictly as UTF-8 here, not by the parser: from bytes it would also take UTF-16/32
        // (and a second byte-order mark) that the SDK then fails on with a stack trace.
        String text;
        try {
            text = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(body)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return new Verdict(reject(400, -32700, "parse error: the body is not UTF-8 text (UTF-16 and UTF-32 are not accepted)"), null);
        }
        if (text.startsWith("\uFEFF")) {
            return new Verdict(reject(400, -32700, "parse error: more than one byte-order mark before the JSON"), null);
        }
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (JacksonException e) {
            return new Verdict(reject(400, -32700, "parse error: the body is not valid JSON (UTF-8, nesting at most "
                    + MAX_NESTING + " levels)"), null);
        }
        Optional<Rejection> shape = shape(message);
        return new Verdict(shape, shape.isPresent() ? null : new Accepted(message, false));
    }

    /**
     * Which server takes a well-formed message: a 2026-07-28 claim ({@code _meta} version, the
     * header, or {@code server/discover}) goes to the new server, which checks the rest of
     * {@code _meta} itself; a request without a claim is a 2025 one, judged by its header.
     */
    private Verdict route(JsonNode message, String header) {
        JsonNode id = echoableId(message);
        String method = message.get("method").asString();
        JsonNode meta = message.path("params").path("_meta").get(META_VERSION_KEY);
        String headerVersion = header == null ? null : header.strip();
        if (meta != null) {
            String claimed = meta.isString() ? meta.asString() : meta.toString();
            if (headerVersion != null && !headerVersion.equals(claimed)) {
                // 2026-07-28: the header mirrors _meta; a mismatch is HeaderMismatch, judged before the version.
                return new Verdict(Optional.of(new Rejection(400, HEADER_MISMATCH, "MCP-Protocol-Version header '"
                        + cut(headerVersion) + "' does not match _meta protocol version '" + cut(claimed) + "'", id)), null);
            }
            if (!supportedVersions.contains(claimed)) {
                return new Verdict(unsupported(id, claimed), null);
            }
            return new Verdict(Optional.empty(), new Accepted(message, claimed.equals(MODERN_VERSION)));
        }
        if (MODERN_VERSION.equals(headerVersion) || method.equals("server/discover")) {
            return new Verdict(Optional.empty(), new Accepted(message, true));
        }
        if (method.equals("initialize")) {
            return new Verdict(Optional.empty(), new Accepted(message, false)); // negotiated in the body
        }
        String version = headerVersion == null ? DEFAULT_PROTOCOL_VERSION : headerVersion;
        if (!supportedVersions.contains(version) || !LEGACY_VERSIONS.contains(version)) {
            return new Verdict(unsupported(id, version), null);
        }
        return new Verdict(Optional.empty(), new Accepted(message, false));
    }

    /** @param id the request's id where it may be echoed, else null */
    private Optional<Rejection> unsupported(JsonNode id, String requested) {
        String shown = cut(requested);
        String hint = requested.equals("2025-03-26")
                ? " (not served: that revision requires JSON-RPC batches; initialize negotiates 2025-11-25)" : "";
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("supported", supportedVersions);
        data.put("requested", shown);
        return Optional.of(new Rejection(400, UNSUPPORTED_VERSION, "unsupported protocol version '" + shown + "'" + hint
                + "; supported: " + String.join(", ", supportedVersions), id, data));
    }

    private Optional<Rejection> shape(JsonNode message) {
        if (message == null || message.isMissingNode()) {
            return reject(400, -32700, "parse error: the body is empty, not valid JSON");
        }
        if (!message.isObject()) {
            return reject(400, -32600, message.isArray()
                    ? "batches are not supported: send one JSON-RPC message per request"
                    : "the body must be one JSON-RPC message object");
        }
        return Optional.empty();
    }

    private Optional<Rejection> checkMessage(JsonNode message) {
        JsonNode id = message.get("id");
        JsonNode validId = echoableId(message);
        if ((message.has("result") || message.has("error")) && !message.has("method")) {
            return reject(400, -32600, "this server sends no requests, so it takes no JSON-RPC responses", validId);
        }
        JsonNode version = message.get("jsonrpc");
        if (version == null || !version.isString() || !version.asString().equals("2.0")) {
            return reject(400, -32600, "\"jsonrpc\" must be \"2.0\"", validId);
        }
        JsonNode method = message.get("method");
        if (method == null || !method.isString() || method.asString().isBlank()) {
            return reject(400, -32600, "\"method\" must be a non-empty string", validId);
        }
        String name = method.asString();
        if (name.length() > MAX_METHOD_CHARS) {
            // The SDK's "method not found" repeats the name whole (a 200 KB name, a 200 KB answer).
            return reject(400, -32600, "\"method\" is longer than " + MAX_METHOD_CHARS + " characters; no method is", validId);
        }
        if (id != null && validId == null) {
            return reject(400, -32600, "\"id\" must be a string (at most " + MAX_ID_CHARS
                    + " characters) or an integer that fits in 64 bits");
        }
        if (id == null && !name.startsWith("notifications/")) {
            return reject(400, -32600, "a request needs an \"id\"; only notifications/* may leave it out");
        }
        JsonNode params = message.get("params");
        if (params != null && !params.isObject()) {
            return reject(400, -32602, "\"params\" must be an object when present", validId);
        }
        if (params != null && params.has("_meta") && !params.get("_meta").isObject()) {
            return reject(400, -32602, "\"params._meta\" must be an object when present", validId);
        }
        if (name.equals("tools/call")) {
            if (params == null || !params.path("name").isString()) {
                return reject(400, -32602, "tools/call needs params with a string \"name\"", validId);
            }
            JsonNode arguments = params.get("arguments");
            if (arguments != null && !arguments.isObject()) {
                return reject(400, -32602, "tools/call \"arguments\" must be an object", validId);
            }
        }
        return Optional.empty();
    }

    /**
     * initialize's params as the specification has them: a string protocolVersion, capabilities and
     * clientInfo objects (the common mistakes, said in the specification's words), then every
     * nested field as the SDK reads it.
     */
    private static Optional<String> initializeProblem(JsonNode params) {
        if (params == null) {
            return Optional.of("initialize needs params {protocolVersion, capabilities, clientInfo}");
        }
        if (!params.path("protocolVersion").isString()) {
            return Optional.of("initialize needs a string \"protocolVersion\", such as \"2025-06-18\"");
        }
        if (!params.path("capabilities").isObject()) {
            return Optional.of("initialize needs \"capabilities\" as an object ({} for none)");
        }
        JsonNode client = params.path("clientInfo");
        if (!client.isObject() || !client.path("name").isString()
                || (client.has("version") && !client.get("version").isString())) {
            return Optional.of("initialize needs \"clientInfo\" as an object with a string \"name\" and \"version\"");
        }
        return InitializeParams.problem(params);
    }

    /** The message's id where an answer may echo it (a valid one), else null. */
    private static JsonNode echoableId(JsonNode message) {
        JsonNode id = message.get("id");
        return id != null && validId(id) ? id : null;
    }

    private static boolean validId(JsonNode id) {
        return (id.isString() && id.asString().length() <= MAX_ID_CHARS) || (id.isIntegralNumber() && id.canConvertToLong());
    }

    private static Optional<Rejection> reject(int status, int code, String message) {
        return reject(status, code, message, null);
    }

    private static Optional<Rejection> reject(int status, int code, String message, JsonNode id) {
        return Optional.of(new Rejection(status, code, message, id));
    }

    private static String cut(String s) {
        return s.length() <= MAX_ECHO ? s : s.substring(0, MAX_ECHO) + "…";
    }
}
