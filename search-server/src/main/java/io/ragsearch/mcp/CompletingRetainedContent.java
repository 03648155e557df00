package io.ragsearch.mcp;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.EagerContentHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's retained-content loader with failures passed on. In Jetty 12.1.14 the request that
 * {@code EagerContentHandler.RetainedContentLoaderFactory} hands downstream is also the callback,
 * and it completes the real callback on success only: its failure method does not override
 * {@link Callback#failed}, so a call whose response fails (the client hung up, the usual way to
 * cancel in stateless HTTP) never completes. The request then never ends, and the QoSHandler
 * permit and the graceful-stop count it holds are never given back: as many hang-ups as the
 * in-flight cap left every later request waiting for a 503 ({@code HungUpClientsIT}). Here the
 * downstream callback's failure goes straight to the real callback.
 */
final class CompletingRetainedContent implements EagerContentHandler.ContentLoaderFactory {

    private final EagerContentHandler.RetainedContentLoaderFactory retained;

    CompletingRetainedContent(long maxRetainedBytes) {
        this.retained = new EagerContentHandler.RetainedContentLoaderFactory(maxRetainedBytes, 0, false);
    }

    @Override
    public String getApplicableMimeType() {
        return retained.getApplicableMimeType();
    }

    @Override
    public EagerContentHandler.ContentLoader newContentLoader(String contentType, String mimeType, Handler next, Request request,
                                                              Response response, Callback callback) {
        Handler passingFailures = new Handler.Abstract(next.getInvocationType()) {
            @Override
            public boolean handle(Request req, Response res, Callback rewound) throws Exception {
                return next.handle(req, res, new Callback() {
                    @Override
                    public void succeeded() {
                        rewound.succeeded(); // releases the retained chunks, then completes the real callback
                    }

                    @Override
                    public void failed(Throwable x) {
                        callback.failed(x);
                    }

                    @Override
                    public InvocationType getInvocationType() {
                        return rewound.getInvocationType();
                    }
                });
            }
        };
        return retained.newContentLoader(contentType, mimeType, passingFailures, request, response, callback);
    }
}
