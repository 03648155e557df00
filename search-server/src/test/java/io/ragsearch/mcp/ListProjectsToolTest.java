package io.ragsearch.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The list_projects tool's text: one line per project, a project without a description said so. */
class ListProjectsToolTest {

    @Test
    void eachProjectIsOneLineWithItsSizesAndRetrieval() {
        List<ListProjectsTool.ProjectSummary> projects = List.of(
                new ListProjectsTool.ProjectSummary("hr", "company rules", 3, 27, "korean", "lexical", "none", "v1"),
                new ListProjectsTool.ProjectSummary("laws", "", 1200, 40000, "korean", "hybrid", "cross-encoder", "v2"));
        assertEquals("2 project(s):\n- hr: company rules [3 documents, 27 articles, lexical]\n"
                + "- laws: (no description) [1200 documents, 40000 articles, hybrid]\n", ListProjectsTool.text(projects));
        assertEquals("0 project(s):\n", ListProjectsTool.text(List.of()));
    }
}
