package io.ragsearch.mcp;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The line framing around the SDK's stdio transport, for what it does not do itself. A line longer
 * than the limit was dropped without a word: here it is skipped to its end, answered with a
 * JSON-RPC error (id null: the id was in what was not read) and the next line served. When the
 * input ends, the SDK ended at once and requests still being worked on were never answered: here
 * the end is passed on only when every request read has been answered, or after {@link #DRAIN_MILLIS}.
 * Requests are counted by their ids as lines go in, answers as lines come out; writes go out a
 * whole line at a time, so an error written from the reading side never lands inside an answer.
 */
final class StdioFraming {

    /** How long the end of input waits for answers: a search takes seconds even on a busy machine. */
    static final long DRAIN_MILLIS = 30_000;
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final InputStream in;
    private final OutputStream out;
    private final int maxLineBytes;
    /** Ids (as JSON text) of requests read and not yet answered. */
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final Object answered = new Object();

    StdioFraming(InputStream in, OutputStream out, int maxLineBytes) {
        this.in = new BufferedInputStream(in);
        this.out = out;
        this.maxLineBytes = maxLineBytes;
    }

    /** What the SDK reads: whole lines of at most the limit; the end once every request is answered. */
    InputStream input() {
        return new Lines();
    }

    /** What the SDK writes to: passed on a whole line at a time. */
    OutputStream output() {
        return new WholeLines();
    }

    private final class Lines extends InputStream {

        private byte[] line = new byte[0];
        private int at;
        private boolean ended;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (at >= line.length) {
                if (ended) {
                    return -1;
                }
                if (!nextLine()) {
                    ended = true; // the wait for answers happens once, whoever reads again
                    awaitAnswers();
                    return -1;
                }
            }
            int n = Math.min(len, line.length - at);
            System.arraycopy(line, at, b, off, n);
            at += n;
            return n;
        }

        /** Reads the next line that fits (answering each one that does not); false at the end of input. */
        private boolean nextLine() throws IOException {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) >= 0 && c != '\n') {
                if (buffer.size() == maxLineBytes) {
                    skipToLineEnd();
                    tooLong();
                    buffer.reset();
                    continue;
                }
                buffer.write(c);
            }
            if (c < 0 && buffer.size() == 0) {
                return false;
            }
            buffer.write('\n');
            line = buffer.toByteArray();
            at = 0;
            noteRequest(line);
            return true;
        }

        private void skipToLineEnd() throws IOException {
            int c;
            do {
                c = in.read();
            } while (c >= 0 && c != '\n');
        }
    }

    private final class WholeLines extends OutputStream {

        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) throws IOException {
            partial.write(b);
            if (b == '\n') {
                byte[] whole = partial.toByteArray();
                partial.reset();
                writeLine(whole);
                noteAnswer(whole);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        @Override
        public void flush() throws IOException {
            synchronized (out) {
                out.flush();
            }
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    private void tooLong() throws IOException {
        writeLine(("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"a line longer than " + maxLineBytes
                + " bytes was not read: one JSON-RPC message per line, each at most " + (maxLineBytes >> 20) + " MiB\"}}\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    private void writeLine(byte[] whole) throws IOException {
        synchronized (out) {
            out.write(whole);
            out.flush();
        }
    }

    private void noteRequest(byte[] line) {
        JsonNode message = parse(line);
        if (message != null && message.has("method") && answerable(message.get("id"))) {
            pending.add(message.get("id").toString());
        }
    }

    private void noteAnswer(byte[] line) {
        JsonNode message = parse(line);
        if (message != null && !message.has("method") && (message.has("result") || message.has("error")) && message.has("id")) {
            pending.remove(message.get("id").toString());
            synchronized (answered) {
                answered.notifyAll();
            }
        }
    }

    private static boolean answerable(JsonNode id) {
        return id != null && (id.isString() || id.isIntegralNumber());
    }

    private static JsonNode parse(byte[] line) {
        try {
            JsonNode node = JSON.readTree(line);
            return node != null && node.isObject() ? node : null;
        } catch (JacksonException e) {
            return null;
        }
    }

    private void awaitAnswers() {
        long deadline = System.nanoTime() + DRAIN_MILLIS * 1_000_000;
        synchronized (answered) {
            while (!pending.isEmpty()) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return;
                }
                try {
                    answered.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
