package io.ragsearch.mcp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import tools.jackson.databind.json.JsonMapper;

/**
 * GET {@code /.well-known/oauth-protected-resource} and its form for /mcp
 * ({@code /.well-known/oauth-protected-resource/mcp}): the metadata a client reads after a 401 to
 * find the authorization server. Public by design (it names only the issuer and this server).
 */
final class ResourceMetadataServlet extends HttpServlet {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final ProtectedResource resource;

    ResourceMetadataServlet(ProtectedResource resource) {
        this.resource = resource;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getRequestURI();
        if (!path.equals(ProtectedResource.WELL_KNOWN) && !path.equals(ProtectedResource.WELL_KNOWN + McpHttpServer.PATH)) {
            resp.sendError(404);
            return;
        }
        resp.setStatus(200);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.setHeader("Cache-Control", "max-age=300");
        resp.getOutputStream().write(JSON.writeValueAsBytes(resource.metadata(req)));
    }
}
