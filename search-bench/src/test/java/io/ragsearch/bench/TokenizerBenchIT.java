package io.ragsearch.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ragsearch.config.ServerEnvironment;
import io.ragsearch.embed.BuiltinModelHome;
import io.ragsearch.server.SettingsResolver;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * `tokenizer` on 40 statute articles with the real multilingual-e5-small tokenizer.json: both
 * memory probes run in their own JVM and report, both speeds are printed, and the ids agree.
 */
class TokenizerBenchIT {

    @Test
    void printsMemoryAndSpeedOfBothTokenizersAndTheirIdsAgree() {
        BuiltinModelHome home = SettingsResolver.builtinModels(ServerEnvironment.read(System.getenv()));
        if (home.multilingual().isEmpty()) {
            fail("multilingual-e5-small is not installed in any of " + home.roots()
                    + ": run scripts/model/fetch-e5.sh (scripts/test/all.sh does) before this test");
        }
        Path corpus = EmbeddingBenchIT.koStatutes(System.getenv());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchCli.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("tokenizer", "--ko", corpus.toString(), "--articles", "40", "--rounds", "2");
        String text = out.toString();
        assertEquals(0, code, "exit status; stderr:\n" + err + "\nstdout:\n" + text);
        assertTrue(text.contains("ids: identical on all 40 articles"), text);
        for (String which : new String[] {"ours", "rust"}) {
            Matcher memory = Pattern.compile("^  " + which + " +RSS +(\\d+) -> +(\\d+) MiB \\(\\+(-?\\d+) MiB\\), heap in use \\+(-?\\d+) MiB, load (\\d+) ms$",
                    Pattern.MULTILINE).matcher(text);
            assertTrue(memory.find(), which + " memory line in:\n" + text);
            assertTrue(Long.parseLong(memory.group(1)) > 0, "RSS read from /proc:\n" + text);
            Matcher speed = Pattern.compile("^  " + which + " +([0-9,]+) tokens/s wall, ([0-9,]+) tokens per CPU-second$",
                    Pattern.MULTILINE).matcher(text);
            assertTrue(speed.find(), which + " speed line in:\n" + text);
            assertTrue(Long.parseLong(speed.group(1).replace(",", "")) > 0, text);
        }
        assertTrue(text.contains("ours/rust: "), text);
        System.out.print(text);
    }
}
