package io.ragsearch.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 exchange over a plain socket: any Host, any header, any bytes as the body (the
 * JDK client refuses some of those). The body is written from its own thread, so a server that
 * answers before reading a huge body is seen answering.
 */
final class RawHttp {

    /** A response: status, headers (lower-case names) and the body, de-chunked. */
    record Response(int status, Map<String, String> headers, String body) {
    }

    private RawHttp() {
    }

    static Response exchange(int port, String method, String path, Map<String, String> headers, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
            if (!headers.containsKey("Host")) {
                head.append("Host: 127.0.0.1:").append(port).append("\r\n");
            }
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            if (!headers.containsKey("Content-Length") && (body.length > 0 || !method.equals("GET"))) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("Connection: close\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            Thread writer = new Thread(() -> {
                try {
                    for (int at = 0; at < body.length; at += 1 << 16) {
                        out.write(body, at, Math.min(1 << 16, body.length - at));
                    }
                    out.flush();
                } catch (IOException e) {
                    // the server answered and closed before taking it all: its answer is what counts
                }
            }, "raw-body");
            writer.start();
            byte[] all = readAll(socket.getInputStream());
            try {
                writer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return parse(all);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                all.write(buffer, 0, n);
            }
        } catch (java.net.SocketException e) {
            // a reset after the response was sent (the server closed with unread body bytes)
        }
        return all.toByteArray();
    }

    private static Response parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int split = text.indexOf("\r\n\r\n");
        if (split < 0 || text.length() < 12) {
            return new Response(-1, Map.of(), text);
        }
        String[] lines = text.substring(0, split).split("\r\n");
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, split + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < body.length) {
            int lineEnd = indexOfCrLf(body, at);
            if (lineEnd < 0) {
                break;
            }
            String sizeLine = new String(body, at, lineEnd - at, StandardCharsets.ISO_8859_1);
            int size = Integer.parseInt(sizeLine.split(";")[0].strip(), 16);
            if (size == 0) {
                break;
            }
            out.write(body, lineEnd + 2, Math.min(size, body.length - lineEnd - 2));
            at = lineEnd + 2 + size + 2;
        }
        return out.toByteArray();
    }

    private static int indexOfCrLf(byte[] b, int from) {
        for (int i = from; i + 1 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
