package io.ragsearch.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the commands a Markdown file shows in its {@code sh} blocks. */
public final class DocCommands {
    private static final Pattern SHELL_FENCE = Pattern.compile("^```(sh|bash|shell)\\s*$");
    private static final Pattern HEREDOC = Pattern.compile("<<'?([A-Z]+)'?\\s*$");

    private DocCommands() {
    }

    public static List<DocCommand> read(Path root, String file) throws IOException {
        List<String> lines = Files.readAllLines(root.resolve(file));
        List<DocCommand> commands = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!SHELL_FENCE.matcher(lines.get(i)).matches()) {
                continue;
            }
            List<DocCommand> block = new ArrayList<>();
            int j = i + 1;
            for (; j < lines.size() && !lines.get(j).startsWith("```"); j++) {
                String line = lines.get(j).strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int start = j;
                StringBuilder text = new StringBuilder();
                while (line.endsWith("\\") && j + 1 < lines.size()) {
                    text.append(line, 0, line.length() - 1).append(' ');
                    line = lines.get(++j).strip();
                }
                text.append(line);
                Matcher heredoc = HEREDOC.matcher(line);
                if (heredoc.find()) {
                    while (++j < lines.size() && !lines.get(j).equals(heredoc.group(1))) {
                        text.append('\n').append(lines.get(j));
                    }
                    text.append('\n').append(heredoc.group(1));
                }
                block.add(new DocCommand(file, start + 1, withoutTrailingComment(text.toString()), List.of()));
            }
            List<String> output = outputAfter(lines, j + 1);
            if (!block.isEmpty() && !output.isEmpty()) {
                DocCommand last = block.remove(block.size() - 1);
                block.add(new DocCommand(last.file(), last.line(), last.text(), output));
            }
            commands.addAll(block);
            i = j;
        }
        return commands;
    }

    /** A plain fenced block right after (blank lines between at most) shows the last command's output. */
    private static List<String> outputAfter(List<String> lines, int from) {
        int k = from;
        while (k < lines.size() && lines.get(k).isBlank()) {
            k++;
        }
        if (k >= lines.size() || !lines.get(k).equals("```")) {
            return List.of();
        }
        List<String> output = new ArrayList<>();
        while (++k < lines.size() && !lines.get(k).startsWith("```")) {
            output.add(lines.get(k));
        }
        return output;
    }

    /** "cmd   # what it does": the comment explains the command to a reader; the shell ignores it. */
    private static String withoutTrailingComment(String text) {
        if (text.contains("\n")) {
            return text;
        }
        int hash = text.indexOf(" # ");
        String command = hash < 0 ? text : text.substring(0, hash);
        return command.strip().replaceAll(" {2,}", " ");
    }
}
