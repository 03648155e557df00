package io.ragsearch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The compact per-article terms answer exactly as a set of strings per article did. */
class ArticleTermsTest {

    @Test
    void answersAsASetPerArticleOnRandomArticles() {
        Random random = new Random(28);
        List<Set<String>> sets = new ArrayList<>();
        ArticleTerms.Builder builder = new ArticleTerms.Builder();
        for (int a = 0; a < 300; a++) {
            Set<String> terms = new LinkedHashSet<>();
            int n = random.nextInt(40);
            for (int i = 0; i < n; i++) {
                // Few distinct words, so articles share most of them (as statute articles do).
                terms.add("w" + random.nextInt(200));
            }
            sets.add(terms);
            builder.add(terms);
        }
        ArticleTerms compact = builder.build();
        assertEquals(300, compact.articles());
        int hits = 0;
        for (int a = 0; a < sets.size(); a++) {
            for (int w = 0; w < 210; w++) {
                String term = "w" + w;
                boolean expected = sets.get(a).contains(term);
                assertEquals(expected, compact.contains(a, term), "article " + a + ", " + term);
                hits += expected ? 1 : 0;
            }
        }
        assertTrue(hits > 1000, "the random articles hold terms: " + hits);
    }

    @Test
    void anArticleWithoutTermsAndATermNoArticleHasAreMisses() {
        ArticleTerms.Builder builder = new ArticleTerms.Builder();
        builder.add(Set.of());
        builder.add(new HashSet<>(List.of("근로자", "해고")));
        ArticleTerms compact = builder.build();
        assertFalse(compact.contains(0, "근로자"));
        assertTrue(compact.contains(1, "근로자"));
        assertTrue(compact.contains(1, "해고"));
        assertFalse(compact.contains(1, "예고"));
    }
}
