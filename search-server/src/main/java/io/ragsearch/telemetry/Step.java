package io.ragsearch.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;

/**
 * A span around one step of the work, current while the step runs so that the steps inside it
 * become its children; closed (in try-with-resources) on the thread that opened it. With the
 * no-op tracer nothing is made current: a step costs a method call.
 */
public final class Step implements AutoCloseable {

    private final Span span;
    private final Scope scope;

    private Step(Span span) {
        this.span = span;
        this.scope = span.getSpanContext().isValid() ? span.makeCurrent() : Scope.noop();
    }

    public static Step start(Tracer tracer, String name) {
        return new Step(tracer.spanBuilder(name).startSpan());
    }

    public <T> Step set(AttributeKey<T> key, T value) {
        if (value != null) {
            span.setAttribute(key, value);
        }
        return this;
    }

    public Step set(AttributeKey<Long> key, int value) {
        span.setAttribute(key, value);
        return this;
    }

    /** The step ended in {@code e}: status ERROR, {@code error.type} its class (the semantic conventions' fallback). */
    public void failed(Throwable e) {
        span.setStatus(StatusCode.ERROR);
        span.setAttribute(Conventions.ERROR_TYPE, e.getClass().getName());
    }

    @Override
    public void close() {
        scope.close();
        span.end();
    }
}
