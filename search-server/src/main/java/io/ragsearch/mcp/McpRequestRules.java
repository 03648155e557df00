package io.ragsearch.mcp;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
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
 * Each check returns a verdict the caller applies as it stands: {@link #checkRequestLine} a
 * {@link LineVerdict} (read the body, or refuse), {@link #check} a {@link Verdict} (refuse, or
 * hand the message to the server it names). Pure logic, so the fuzz tests drive it directly.
 */
public final class McpRequestRules {

    /** What the request line decided: {@link ReadBody} or a {@link Reject}. */
    public sealed interface LineVerdict permits ReadBody, Reject {
    }

    /** What a whole message decided: an {@link Accept} for one of the two servers, or a {@link Reject}. */
    public sealed interface Verdict permits Accept, Reject {
    }

    /** The request line passed: read the body (at most {@link #maxBodyBytes()} of it) and {@link #check} it. */
    public record ReadBody() implements LineVerdict {
        public static final ReadBody INSTANCE = new ReadBody();
    }

    /**
     * A refusal, complete: the HTTP status and headers, the JSON-RPC code and message, the request's
     * id when it had a valid one (else null), error data or null.
     */
    public record Reject(int status, int code, String message, JsonNode id, Object data, Map<String, String> headers)
            implements LineVerdict, Verdict {

        Reject(int status, int code, String message, JsonNode id) {
            this(status, code, message, id, null, Map.of());
        }
    }

    /**
     * A message that passed, and whether the 2026-07-28 server ({@code modern}) or the 2025 one takes it.
     * Every check has been made: its method is a non-empty string, its id absent or valid.
     */
    public record Accept(JsonNode message, boolean modern) implements Verdict {

        public String method() {
            return message.get("method").asString();
        }

        /** The params object, or a missing node when the message has none. */
        public JsonNode params() {
            return message.path("params");
        }

        /** The request's id, to echo in an answer; null for a notification. */
        public JsonNode id() {
            return message.get("id");
        }

        /** The id as text (a string id as it is, a number in JSON), null for a notification. */
        public String idText() {
            JsonNode id = id();
            return id == null ? null : id.isString() ? id.asString() : id.toString();
        }
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
     * POST only, and a declared length ({@code contentLength}, -1 when unknown) within the limit:
     * judged before the body is read. Media types and the protocol version are judged with the
     * body ({@link #check}), where the request's id is known.
     */
    public LineVerdict checkRequestLine(String method, long contentLength) {
        if (!"POST".equals(method)) {
            return new Reject(405, -32600, "this stateless MCP endpoint takes POST only", null, null, Map.of("Allow", "POST"));
        }
        if (contentLength > maxBodyBytes) {
            return tooLarge();
        }
        return ReadBody.INSTANCE;
    }

    /**
     * Checks a body as read (at most {@link #maxBodyBytes()} + 1 bytes, a leading byte-order mark
     * already removed, {@link #withoutBom}) with the request's Content-Type, Accept and
     * MCP-Protocol-Version (null: none) headers: its size, the media types (a refusal echoes the id
     * when the body has a valid one), then the message and which server takes it.
     */
    public Verdict check(byte[] body, String contentType, String accept, String protocolVersionHeader) {
        if (body.length > maxBodyBytes) {
            return tooLarge();
        }
        Optional<Reject> media = MediaTypes.problem(contentType, accept, readableId(body));
        return media.isPresent() ? media.get() : checkMessage(body, protocolVersionHeader);
    }

    private Reject tooLarge() {
        return new Reject(413, -32600, "request body exceeds " + maxBodyBytes + " bytes", null);
    }

    /** The body without a leading UTF-8 byte-order mark (RFC 8259 lets a parser ignore one). */
    public static byte[] withoutBom(byte[] body) {
        if (body.length >= 3 && body[0] == UTF8_BOM[0] && body[1] == UTF8_BOM[1] && body[2] == UTF8_BOM[2]) {
            return Arrays.copyOfRange(body, 3, body.length);
        }
        return body;
    }

    /** One message (within the size limit) sent with this MCP-Protocol-Version header (null: none). */
    private Verdict checkMessage(byte[] body, String protocolVersionHeader) {
        // Decoded strictly as UTF-8 here, not by the parser: from bytes it would also take UTF-16/32
        // (and a second byte-order mark) that the SDK then fails on with a stack trace.
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return new Reject(400, -32700, "parse error: the body is not UTF-8 text (UTF-16 and UTF-32 are not accepted)", null);
        }
        if (text.startsWith("\uFEFF")) {
            return new Reject(400, -32700, "parse error: more than one byte-order mark before the JSON", null);
        }
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (JacksonException e) {
            return new Reject(400, -32700, "parse error: the body is not valid JSON (UTF-8, nesting at most "
                    + MAX_NESTING + " levels)", null);
        }
        Optional<Reject> bad = shape(message);
        if (bad.isEmpty()) {
            bad = wellFormed(message);
        }
        if (bad.isPresent()) {
            return bad.get();
        }
        Verdict routed = route(message, protocolVersionHeader);
        // initialize is a 2025 method: 2026-07-28 removed it, and its server answers it as an unknown method.
        if (routed instanceof Accept a && !a.modern() && a.method().equals("initialize")) {
            Optional<String> problem = initializeProblem(message.get("params"));
            if (problem.isPresent()) {
                return new Reject(400, -32602, problem.get(), echoableId(message));
            }
        }
        return routed;
    }

    /** The id of a body that parses as a JSON-RPC object with a valid id; null otherwise (never throws). */
    static JsonNode readableId(byte[] body) {
        try {
            JsonNode message = JSON.readTree(body);
            return message == null ? null : echoableId(message);
        } catch (JacksonException | IllegalArgumentException e) {
            return null;
        }
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
                return new Reject(400, HEADER_MISMATCH, "MCP-Protocol-Version header '"
                        + cut(headerVersion) + "' does not match _meta protocol version '" + cut(claimed) + "'", id);
            }
            if (!supportedVersions.contains(claimed)) {
                return unsupported(id, claimed);
            }
            return new Accept(message, claimed.equals(MODERN_VERSION));
        }
        if (MODERN_VERSION.equals(headerVersion) || method.equals("server/discover")) {
            return new Accept(message, true);
        }
        if (method.equals("initialize")) {
            return new Accept(message, false); // negotiated in the body
        }
        String version = headerVersion == null ? DEFAULT_PROTOCOL_VERSION : headerVersion;
        if (!supportedVersions.contains(version) || !LEGACY_VERSIONS.contains(version)) {
            return unsupported(id, version);
        }
        return new Accept(message, false);
    }

    /** @param id the request's id where it may be echoed, else null */
    private Reject unsupported(JsonNode id, String requested) {
        String shown = cut(requested);
        String hint = requested.equals("2025-03-26")
                ? " (not served: that revision requires JSON-RPC batches; initialize negotiates 2025-11-25)" : "";
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("supported", supportedVersions);
        data.put("requested", shown);
        return new Reject(400, UNSUPPORTED_VERSION, "unsupported protocol version '" + shown + "'" + hint
                + "; supported: " + String.join(", ", supportedVersions), id, data, Map.of());
    }

    private static Optional<Reject> shape(JsonNode message) {
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

    /** The JSON-RPC rules for one message object, and what the SDK would answer badly. */
    private static Optional<Reject> wellFormed(JsonNode message) {
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

    private static Optional<Reject> reject(int status, int code, String message) {
        return reject(status, code, message, null);
    }

    private static Optional<Reject> reject(int status, int code, String message, JsonNode id) {
        return Optional.of(new Reject(status, code, message, id));
    }

    private static String cut(String s) {
        return s.length() <= MAX_ECHO ? s : s.substring(0, MAX_ECHO) + "…";
    }
}
