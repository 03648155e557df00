package io.ragsearch.mcp;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A deadline for a request's body: the whole body must have arrived within {@link #limit} of
 * the request head, or the connection is closed. Jetty's minimum data rate is not applied to
 * bodies read ahead by {@code EagerContentHandler} (the black-box review kept a body open at a
 * byte a second for minutes), and its idle timeout never fires while a byte still arrives now
 * and then; such a connection held a socket for as long as its client liked.
 *
 * <p>Two handlers: {@link #outer} starts the clock around the body reader, {@link #inner}
 * (reached once the body is complete) stops it.
 */
final class BodyDeadline {

    private static final String TASK = BodyDeadline.class.getName() + ".task";

    private final Duration limit;

    BodyDeadline(Duration limit) {
        this.limit = limit;
    }

    Duration limit() {
        return limit;
    }

    /** Starts the clock, then hands the request to the body reader. */
    Handler outer(Handler bodyReader) {
        return new Handler.Wrapper(bodyReader) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                Scheduler.Task task = request.getComponents().getScheduler().schedule(
                        () -> request.getConnectionMetaData().getConnection().getEndPoint().close(),
                        limit.toMillis(), TimeUnit.MILLISECONDS);
                request.setAttribute(TASK, task);
                Callback cancelling = Callback.from(callback, task::cancel);
                boolean handled;
                try {
                    handled = super.handle(request, response, cancelling);
                } catch (Exception | Error e) {
                    task.cancel();
                    throw e;
                }
                if (!handled) {
                    task.cancel();
                }
                return handled;
            }
        };
    }

    /** Stops the clock: the body is all here. */
    Handler inner(Handler next) {
        return new Handler.Wrapper(next) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                if (request.getAttribute(TASK) instanceof Scheduler.Task task) {
                    task.cancel();
                }
                return super.handle(request, response, callback);
            }
        };
    }
}
