package io.ragsearch.query;

import java.util.Set;
import org.apache.lucene.analysis.ko.POS;

/**
 * Words that make a sentence a question but say nothing about its subject: "며칠", "어떻게",
 * "무엇", "하나요", "알려주세요". Removed from queries only (never from the index), so they
 * neither rank articles nor lower an article's evidence. English question words are stop words
 * of the English analyzer already (see {@code io.ragsearch.index.Analyzers}).
 */
final class QuestionFiller {

    /**
     * Parts of speech that never carry a question's subject: pronouns (무엇, 언제, 누구),
     * dependent nouns (수, 것, 때), numerals (몇 "일"), the copula, auxiliary verbs (주, 않),
     * interjections. Nori's default index filter keeps these, so the query side drops them.
     */
    private static final Set<POS.Tag> TAGS = Set.of(POS.Tag.NP, POS.Tag.NNB, POS.Tag.NR, POS.Tag.VCP, POS.Tag.VCN,
            POS.Tag.VX, POS.Tag.IC);

    /** Nouns, pronouns and roots that are still filler in a question. */
    private static final Set<String> WORDS = Set.of(
            "며칠", "몇", "얼마", "얼마나", "무엇", "뭐", "언제", "어디", "누구", "어느", "왜", "궁금",
            "경우", "관련", "내용", "질문", "문의", "방법", "정도", "혹시", "가능", "필요",
            "좀", "요", "저", "나", "우리", "저희", "여기", "거기", "이거", "그거", "때", "것", "거", "수", "등");

    /**
     * Verb and adjective stems that only frame a question ("하나요", "되나요", "있나요", "알려
     * 주세요", "어떻게"); as verbs only, since "주" is also the noun week.
     */
    private static final Set<String> VERBS = Set.of(
            "하", "되", "있", "없", "알", "알리", "주", "줏", "싶", "드리", "그렇", "이렇", "같", "어떻", "어떠", "대하", "관하");

    private static final Set<POS.Tag> VERB_TAGS = Set.of(POS.Tag.VV, POS.Tag.VA, POS.Tag.VX);

    private QuestionFiller() {
    }

    static boolean isFiller(String term, POS.Tag tag) {
        if (tag != null && TAGS.contains(tag)) {
            return true;
        }
        return WORDS.contains(term) || (tag != null && VERB_TAGS.contains(tag) && VERBS.contains(term));
    }
}
