package io.ragsearch.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;
import org.junit.jupiter.api.Test;

class ThesaurusTest {

    private final Analyzer korean = new KoreanAnalyzer();

    @Test
    void rulesMatchAnalysedFormsAndMultiWordKeysNeedEveryWord() {
        Thesaurus t = Thesaurus.parse(List.of("# comment", "", "잘리다, 짤리다 => 해고", "회사 나가다 => 퇴직"), korean);
        assertEquals(Set.of("해고"), t.expand(Tokens.termList(korean, "body", "잘렸어요")));
        assertEquals(List.of("해고"), t.alternatives("짤리"));
        assertTrue(t.expand(Tokens.termList(korean, "body", "회사 다녀요")).isEmpty());
        assertEquals(Set.of("퇴직"), t.expand(Tokens.termList(korean, "body", "회사 나갈 때")));
        assertThrows(IllegalArgumentException.class, () -> Thesaurus.parse(List.of("no arrow here"), korean));
    }

    @Test
    void theBuiltInKoreanRulesLoad() {
        Thesaurus builtin = Thesaurus.builtinKorean(korean);
        assertTrue(builtin.expand(List.of("월급")).contains("임금"));
        assertTrue(builtin.alternatives("잘리").contains("해고"), "잘렸어요 is analysed to 잘리");
        assertTrue(Thesaurus.empty().expand(List.of("월급")).isEmpty());
    }
}
