package io.ragsearch.cli;

import io.ragsearch.mcpclient.McpToolClient;
import io.ragsearch.verification.ChecksFile;
import io.ragsearch.verification.Target;
import io.ragsearch.verification.Verifier;
import io.ragsearch.verification.VerifyException;
import io.ragsearch.verification.VerifyReport;
import io.ragsearch.verification.VerifyText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Runs a checks file against a server, side by side with a baseline when given (docs/verify.md). */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Run a checks file (see docs/verify.md) against a running server through MCP, side by side with a "
                + "baseline server when given, and print a row per check with both answers, the verdict and the difference.",
                "Exit status: 0 every check passed, 3 a check failed, 1 an error (bad checks file or option)."})
final class VerifyCommand implements Callable<Integer> {

    static final int CHECK_FAILED = 3;

    @Option(names = "--checks", required = true, paramLabel = "FILE", description = "The checks file (YAML; a question file of eval is one too).")
    Path checks;

    @Option(names = "--url", required = true, paramLabel = "URL",
            description = "The candidate's MCP endpoint, e.g. http://127.0.0.1:8080/mcp; token from $RAGSEARCH_AUTH_TOKEN.")
    String url;

    @Option(names = "--baseline-url", paramLabel = "URL",
            description = "The running version to compare with; token from $RAGSEARCH_BASELINE_AUTH_TOKEN, else $RAGSEARCH_AUTH_TOKEN.")
    String baselineUrl;

    @Option(names = "--admin-url", paramLabel = "URL",
            description = "The candidate's admin listener for health checks (default: the MCP host, its port plus one).")
    String adminUrl;

    @Option(names = "--baseline-admin-url", paramLabel = "URL", description = "The baseline's admin listener (default as --admin-url).")
    String baselineAdminUrl;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "How long one call may take (default 30).")
    int timeoutSeconds = (int) Verifier.DEFAULT_TIMEOUT.toSeconds();

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Option(names = "--save-schemas", paramLabel = "FILE",
            description = "Also write the candidate's tool list and schemas to FILE, for a schemas check's 'file'.")
    Path saveSchemas;

    @Override
    public Integer call() {
        if (timeoutSeconds < 1) {
            throw new VerifyException("--timeout must be at least 1 second");
        }
        if (baselineUrl == null && baselineAdminUrl != null) {
            throw new VerifyException("--baseline-admin-url needs --baseline-url");
        }
        ChecksFile file = ChecksFile.load(checks);
        String token = System.getenv("RAGSEARCH_AUTH_TOKEN");
        String baselineToken = System.getenv("RAGSEARCH_BASELINE_AUTH_TOKEN");
        Target candidate = Target.of(url, adminUrl, token);
        Target baseline = baselineUrl == null ? null
                : Target.of(baselineUrl, baselineAdminUrl, baselineToken != null && !baselineToken.isBlank() ? baselineToken : token);
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        VerifyReport report = new Verifier(timeout).run(file, candidate, baseline);
        if (json) {
            System.out.println(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValueAsString(report));
        } else {
            System.out.print(VerifyText.render(report));
        }
        if (saveSchemas != null) {
            try (McpToolClient client = new McpToolClient(url, token, timeout)) {
                io.ragsearch.verification.SchemasFile.write(client.tools(), saveSchemas);
            }
            if (!json) {
                System.out.println("wrote " + saveSchemas);
            }
        }
        return report.allPassed() ? 0 : CHECK_FAILED;
    }
}
