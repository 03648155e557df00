package io.ragsearch.corpus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a document body (front matter already removed) into articles.
 *
 * <p>Numbered articles win: a heading "##### 제18조 (제목)", "## Article 4 (Title)", or a plain
 * line "제18조(제목) text" starts an article. Only a document without any of those is split on
 * its Markdown headings, and a document without headings becomes one article. Addenda (부칙)
 * and everything after them are skipped unless asked for.
 */
public final class ArticleSplitter {

    static final String WHOLE_DOCUMENT_LABEL = "full-text";

    /** Korean label with optional 의-branch, spaces tolerated: 제18조, 제76조의3, 제 2 조. */
    private static final Pattern KOREAN_LABEL =
            Pattern.compile("^(제\\s*\\d+\\s*조(?:\\s*의\\s*\\d+)?)(?=\\s|\\(|$)\\s*(?:\\(([^)]*)\\))?\\s*(.*)$");
    private static final Pattern ENGLISH_LABEL = Pattern.compile(
            "^((?:Article|Section)\\s+\\d+(?:-\\d+)?[A-Za-z]?)(?=\\s|\\(|\\.|:|$)\\s*"
                    + "(?:\\(([^)]*)\\)\\s*(.*)|[.:\\u2014\\u2013-]\\s*(.*)|(.*))$",
            Pattern.CASE_INSENSITIVE);
    /** A plain (non-heading) line starts an article only with its title in parentheses, or alone. */
    private static final Pattern PLAIN_KOREAN_ARTICLE =
            Pattern.compile("^(제\\d+조(?:의\\d+)?)\\s*(?:\\(([^)]*)\\)\\s*(.*))?$");
    private static final Pattern ADDENDA_HEADING = Pattern.compile("^#{1,6}\\s*부\\s*칙(\\s|<|$).*");
    private static final Pattern ADDENDA_LINE = Pattern.compile("^부\\s*칙\\s*(<[^>]*>)?\\s*$");
    private static final Pattern DELETED =
            Pattern.compile("^(삭제\\s*(<[^>]*>)?|\\[?deleted\\]?)\\s*\\.?$", Pattern.CASE_INSENSITIVE);
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final Pattern BLANK_RUNS = Pattern.compile("\\n{3,}");

    private final boolean includeAddenda;

    public ArticleSplitter(boolean includeAddenda) {
        this.includeAddenda = includeAddenda;
    }

    public List<Article> split(String body, String documentTitle) {
        List<String> lines = body.lines().toList();
        if (!includeAddenda) {
            lines = lines.subList(0, addendaStart(lines));
        }
        List<Article> numbered = splitNumbered(lines);
        if (!numbered.isEmpty()) {
            return numbered;
        }
        List<Article> sections = splitOnHeadings(lines);
        if (!sections.isEmpty()) {
            return sections;
        }
        String text = tidy(lines);
        return text.isEmpty() ? List.of()
                : List.of(new Article(WHOLE_DOCUMENT_LABEL, 1, documentTitle, text, false));
    }

    /** The document's title from its first level-one heading, if any. */
    public static Optional<String> firstTitleHeading(String body) {
        return body.lines()
                .map(MarkdownHeading::parse)
                .flatMap(Optional::stream)
                .filter(h -> h.level() == 1)
                .map(h -> h.text().strip())
                .findFirst();
    }

    private static int addendaStart(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (ADDENDA_HEADING.matcher(line).matches() || ADDENDA_LINE.matcher(line).matches()) {
                return i;
            }
        }
        return lines.size();
    }

    private List<Article> splitNumbered(List<String> lines) {
        ArticleCollector out = new ArticleCollector();
        OpenArticle open = null;
        for (String raw : lines) {
            String line = raw.strip();
            Optional<MarkdownHeading> heading = MarkdownHeading.parse(line);
            int level = heading.map(MarkdownHeading::level).orElse(0);
            Optional<OpenArticle> start = heading.isPresent() ? numberedStart(heading.get().text(), level) : plainStart(line);
            if (start.isPresent()) {
                out.close(open);
                open = start.get();
            } else if (heading.isPresent() && open != null && (open.level == 0 || level <= open.level)) {
                // A chapter or section heading ends the article; it belongs to no article.
                out.close(open);
                open = null;
            } else if (open != null) {
                open.body.add(raw);
            }
        }
        out.close(open);
        return out.articles;
    }

    private static Optional<OpenArticle> numberedStart(String headingText, int level) {
        Matcher korean = KOREAN_LABEL.matcher(headingText);
        if (korean.matches()) {
            String label = SPACES.matcher(korean.group(1)).replaceAll("");
            return Optional.of(new OpenArticle(label, nullToEmpty(korean.group(2)), level, korean.group(3)));
        }
        Matcher english = ENGLISH_LABEL.matcher(headingText);
        if (english.matches()) {
            String label = SPACES.matcher(english.group(1)).replaceAll(" ");
            // "Article 4 (Title) text", "Article 4. Title", "Article 4 Title"
            String title = english.group(2) != null ? english.group(2)
                    : english.group(4) != null ? english.group(4) : nullToEmpty(english.group(5));
            return Optional.of(new OpenArticle(label, title.strip(), level, english.group(3)));
        }
        return Optional.empty();
    }

    private static Optional<OpenArticle> plainStart(String line) {
        Matcher m = PLAIN_KOREAN_ARTICLE.matcher(line);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new OpenArticle(m.group(1), nullToEmpty(m.group(2)).strip(), 0, m.group(3)));
    }

    private List<Article> splitOnHeadings(List<String> lines) {
        int splitLevel = sectionLevel(lines);
        if (splitLevel == 0) {
            return List.of();
        }
        ArticleCollector out = new ArticleCollector();
        OpenArticle open = null;
        boolean titleSkipped = false;
        for (String raw : lines) {
            Optional<MarkdownHeading> heading = MarkdownHeading.parse(raw.strip());
            if (heading.isPresent()) {
                int level = heading.get().level();
                if (level == 1 && splitLevel > 1 && !titleSkipped) {
                    titleSkipped = true;
                    continue;
                }
                if (level <= splitLevel) {
                    out.close(open);
                    String text = heading.get().text().strip();
                    open = new OpenArticle(text, text, level, "");
                    continue;
                }
            }
            if (open != null) {
                open.body.add(raw);
            }
        }
        out.close(open);
        return out.articles;
    }

    /** The shallowest heading level below the document's single title heading; 0 when none. */
    private static int sectionLevel(List<String> lines) {
        int titles = 0;
        int shallowest = 7;
        for (String raw : lines) {
            Optional<MarkdownHeading> heading = MarkdownHeading.parse(raw.strip());
            if (heading.isPresent()) {
                int level = heading.get().level();
                if (level == 1) {
                    titles++;
                } else {
                    shallowest = Math.min(shallowest, level);
                }
            }
        }
        if (titles > 1) {
            return 1;
        }
        return shallowest == 7 ? 0 : shallowest;
    }

    private static String tidy(List<String> lines) {
        return BLANK_RUNS.matcher(String.join("\n", lines).strip()).replaceAll("\n\n");
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /** An article whose body is still being read. level 0: started by a plain line. */
    private static final class OpenArticle {
        final String label;
        final String title;
        final int level;
        final List<String> body = new ArrayList<>();

        OpenArticle(String label, String title, int level, String restOfLine) {
            this.label = label;
            this.title = title;
            this.level = level;
            if (restOfLine != null && !restOfLine.isBlank()) {
                body.add(restOfLine);
            }
        }
    }

    /** Turns open articles into records, keeping labels unique within the document. */
    private static final class ArticleCollector {
        final List<Article> articles = new ArrayList<>();
        final Map<String, Integer> seen = new HashMap<>();

        void close(OpenArticle open) {
            if (open == null) {
                return;
            }
            String body = tidy(open.body);
            int n = seen.merge(ArticleLabels.normalize(open.label), 1, Integer::sum);
            String label = n == 1 ? open.label : open.label + " (" + n + ")";
            // An article with neither title nor body (a bare heading) has nothing to be evidence of.
            boolean deleted = DELETED.matcher(body).matches()
                    || (body.isEmpty() && (open.title.isEmpty() || DELETED.matcher(open.title).matches()));
            articles.add(new Article(label, articles.size() + 1, open.title, body, deleted));
        }
    }
}
