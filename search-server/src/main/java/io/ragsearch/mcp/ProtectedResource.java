package io.ragsearch.mcp;

import io.ragsearch.auth.JwtSettings;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * This server as an OAuth protected resource (RFC 9728, as the MCP authorization specification
 * asks of a server that checks tokens): its resource identifier, where its metadata is, and the
 * metadata document. The identifier is the configured {@code auth.resource}, else the URL the
 * request reached /mcp by.
 */
final class ProtectedResource {

    static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

    private final JwtSettings settings;

    ProtectedResource(JwtSettings settings) {
        this.settings = settings;
    }

    /** The resource identifier: an absolute URL without fragment. */
    String resource(HttpServletRequest request) {
        return settings.resource().orElseGet(() -> origin(request) + McpHttpServer.PATH);
    }

    /** RFC 9728 section 3.1: the well-known segment goes between the host and the resource's path. */
    String metadataUrl(HttpServletRequest request) {
        String resource = resource(request);
        int pathStart = resource.indexOf('/', resource.indexOf("://") + 3);
        String origin = pathStart < 0 ? resource : resource.substring(0, pathStart);
        String path = pathStart < 0 ? "" : resource.substring(pathStart);
        return origin + WELL_KNOWN + (path.equals("/") ? "" : path);
    }

    Map<String, Object> metadata(HttpServletRequest request) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("resource", resource(request));
        doc.put("authorization_servers", List.of(settings.issuer()));
        doc.put("bearer_methods_supported", List.of("header"));
        if (!settings.scopes().isEmpty()) {
            doc.put("scopes_supported", settings.scopes());
        }
        doc.put("resource_name", "ragsearch");
        return doc;
    }

    /** The challenge of a 401 or 403: where the metadata is, and (when a token was given) what was wrong with it. */
    String challenge(HttpServletRequest request, String error, String description) {
        StringBuilder b = new StringBuilder("Bearer resource_metadata=\"").append(metadataUrl(request)).append('"');
        if (!settings.scopes().isEmpty()) {
            b.append(", scope=\"").append(String.join(" ", settings.scopes())).append('"');
        }
        if (error != null) {
            b.append(", error=\"").append(error).append('"');
            b.append(", error_description=\"").append(description).append('"');
        }
        return b.toString();
    }

    private static String origin(HttpServletRequest request) {
        String host = request.getHeader("Host");
        if (host == null || host.isBlank() || !host.matches("[A-Za-z0-9.\\-:\\[\\]]+")) {
            host = request.getLocalAddr().contains(":") ? "[" + request.getLocalAddr() + "]:" + request.getLocalPort()
                    : request.getLocalAddr() + ":" + request.getLocalPort();
        }
        return request.getScheme() + "://" + host;
    }
}
