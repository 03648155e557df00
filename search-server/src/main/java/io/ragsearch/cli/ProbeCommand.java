package io.ragsearch.cli;

import io.ragsearch.mcpclient.McpClientException;
import io.ragsearch.mcpclient.McpToolClient;
import io.ragsearch.mcpclient.ToolAnswer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * An agent in miniature, for a platform team's smoke test and the real-plane test's agent pods:
 * reads its bearer token from a file (anew every round, as a projected token rotates), asks the
 * server whether it is let in (the raw answer to an initialize: status and challenge), then calls
 * the tools it was told to and prints each answer as one JSON line.
 */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = {"Call a server's MCP tools as an agent does, with the bearer token in a file, and print what came back, "
                + "one JSON line per answer (first the status and WWW-Authenticate of an initialize, then each call).",
                "Exit status: 0 every round let in, 4 refused (401/403/503), 1 an error."})
final class ProbeCommand implements Callable<Integer> {

    static final int REFUSED = 4;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--url", required = true, paramLabel = "URL", description = "The MCP endpoint, e.g. http://127.0.0.1:8080/mcp.")
    String url;

    @Option(names = "--token-file", required = true, paramLabel = "FILE",
            description = "The bearer token's file, e.g. a projected ServiceAccount token; read anew every round.")
    Path tokenFile;

    @Option(names = "--call", paramLabel = "TOOL[=JSON]",
            description = "A tool to call with its arguments as a JSON object, e.g. search={\"project\":\"hr\",\"query\":\"leave\"}; repeatable.")
    List<String> calls = new ArrayList<>();

    @Option(names = "--every", paramLabel = "SECONDS", description = "Repeat every SECONDS until stopped (default 0: once).")
    int everySeconds;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "How long one call may take (default 30).")
    int timeoutSeconds = 30;

    /** One --call: the tool and its arguments. */
    record Call(String tool, Map<String, Object> arguments) {

        @SuppressWarnings("unchecked")
        static Call parse(String spec) {
            int eq = spec.indexOf('=');
            String tool = eq < 0 ? spec : spec.substring(0, eq);
            if (tool.isBlank()) {
                throw new IllegalArgumentException("--call needs a tool name, e.g. list_projects or search={...}; got '" + spec + "'");
            }
            if (eq < 0) {
                return new Call(tool, Map.of());
            }
            try {
                Object args = JSON.readValue(spec.substring(eq + 1), Object.class);
                if (args instanceof Map<?, ?> m) {
                    return new Call(tool, (Map<String, Object>) m);
                }
            } catch (JacksonException e) {
                // the same message as for any other non-object
            }
            throw new IllegalArgumentException("--call " + tool + ": the arguments must be a JSON object, e.g. {\"project\":\"hr\"}");
        }
    }

    @Override
    public Integer call() throws Exception {
        if (timeoutSeconds < 1 || everySeconds < 0) {
            throw new ParameterException(spec.commandLine(), "--timeout must be at least 1 and --every not negative");
        }
        List<Call> parsed = new ArrayList<>();
        for (String c : calls) {
            try {
                parsed.add(Call.parse(c));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        McpToolClient.parse(url);
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        int last;
        long round = 0;
        do {
            round++;
            last = round(round, parsed, timeout);
            if (everySeconds > 0) {
                // The agent's pace between rounds, not a wait for a condition.
                Thread.sleep(everySeconds * 1000L);
            }
        } while (everySeconds > 0);
        return last;
    }

    private int round(long round, List<Call> parsed, Duration timeout) throws IOException, InterruptedException {
        String token;
        try {
            token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            print(Map.of("round", round, "error", "cannot read the token file " + tokenFile + ": " + e.getClass().getSimpleName()));
            return 1;
        }
        HttpResponse<String> door;
        try {
            door = initialize(token, timeout);
        } catch (IOException e) {
            // A server not up yet or gone: said, and the next round tries again.
            print(Map.of("round", round, "failed", "cannot reach " + url + ": " + McpToolClient.reason(e)));
            return 1;
        }
        Map<String, Object> admitted = new LinkedHashMap<>();
        admitted.put("round", round);
        admitted.put("status", door.statusCode());
        admitted.put("wwwAuthenticate", door.headers().firstValue("WWW-Authenticate").orElse(null));
        if (door.statusCode() != 200) {
            admitted.put("body", door.body().length() > 500 ? door.body().substring(0, 500) : door.body());
            print(admitted);
            return REFUSED;
        }
        print(admitted);
        try (McpToolClient client = new McpToolClient(url, token, timeout)) {
            for (Call c : parsed) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("round", round);
                line.put("tool", c.tool());
                line.put("arguments", c.arguments());
                try {
                    ToolAnswer a = client.call(c.tool(), c.arguments());
                    line.put("error", a.error());
                    line.put("text", a.text());
                } catch (McpClientException e) {
                    line.put("failed", e.getMessage());
                }
                print(line);
            }
        } catch (McpClientException e) {
            print(Map.of("round", round, "failed", e.getMessage()));
            return 1;
        } catch (RuntimeException e) {
            // Anything else the client throws is this round's failure, said on its line; the agent goes on
            // to the next round instead of dying (a restarted container would repeat the round from 1).
            print(Map.of("round", round, "failed", e.toString()));
            return 1;
        }
        return 0;
    }

    /** The raw answer to an initialize with this token: what the server says at the door, before any session. */
    private HttpResponse<String> initialize(String token, Duration timeout) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"ragsearch-probe\",\"version\":\"1\"}}}"))
                .build();
        return HttpClient.newBuilder().connectTimeout(timeout).build().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void print(Map<String, Object> line) {
        System.out.println(JSON.writeValueAsString(line));
        System.out.flush();
    }
}
