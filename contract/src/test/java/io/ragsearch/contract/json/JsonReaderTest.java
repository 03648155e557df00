package io.ragsearch.contract.json;

import io.ragsearch.contract.ContractException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonReaderTest {

    @Test
    void readsEveryKindOfValueInOrder() {
        Object v = JsonReader.parse(" {\"b\": [1, -2.5e3, true, false, null], \"a\": \"x\\u00e9\\n\\\"\", \"c\": {}} ");
        Map<?, ?> m = (Map<?, ?>) v;
        assertEquals(List.of("b", "a", "c"), List.copyOf(m.keySet()));
        List<?> b = (List<?>) m.get("b");
        assertEquals(new BigDecimal("1"), b.get(0));
        assertEquals(0, new BigDecimal("-2500").compareTo((BigDecimal) b.get(1)));
        assertEquals(Boolean.TRUE, b.get(2));
        assertEquals(Boolean.FALSE, b.get(3));
        assertNull(b.get(4));
        assertEquals("xé\n\"", m.get("a"));
    }

    @Test
    void writerOutputReadsBackTheSame() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("text", "탭\t\"따옴표\" \\ \u0001");
        m.put("n", 9_007_199_254_740_993L);
        m.put("list", List.of(1, "two", Map.of("k", false)));
        m.put("none", null);
        Map<?, ?> back = (Map<?, ?>) JsonReader.parse(JsonWriter.write(m));
        assertEquals(m.get("text"), back.get("text"));
        assertEquals(9_007_199_254_740_993L, ((BigDecimal) back.get("n")).longValueExact());
        assertTrue(back.containsKey("none"));
        assertEquals("two", ((List<?>) back.get("list")).get(1));
    }

    @Test
    void refusesWhatIsNotStrictJson() {
        for (String bad : List.of("", "{", "{\"a\":1,}", "[1,]", "{\"a\":1} x", "{a:1}", "'a'", "01", "1.", "-",
                "\"tab\there\"", "\"\\x\"", "\"\\u12\"", "nul", "{\"a\":1,\"a\":2}", "NaN", "[1 2]")) {
            ContractException e = assertThrows(ContractException.class, () -> JsonReader.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("malformed JSON") || e.getMessage().contains("twice"), e.getMessage());
        }
    }

    @Test
    void boundsDepthSizeAndExponent() {
        String deep = "[".repeat(JsonReader.MAX_DEPTH + 2) + "]".repeat(JsonReader.MAX_DEPTH + 2);
        assertTrue(assertThrows(ContractException.class, () -> JsonReader.parse(deep)).getMessage().contains("deeper"));
        String big = "\"" + "x".repeat(JsonReader.MAX_CHARS) + "\"";
        assertTrue(assertThrows(ContractException.class, () -> JsonReader.parse(big)).getMessage().contains("over the limit"));
        assertTrue(assertThrows(ContractException.class, () -> JsonReader.parse("1e999999999")).getMessage().contains("exponent"));
        assertThrows(ContractException.class, () -> JsonReader.parse(null));
    }

    @Test
    void writerRefusesNumbersJsonCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> JsonWriter.write(Map.of("x", Double.NaN)));
        assertThrows(IllegalArgumentException.class, () -> JsonWriter.write(List.of(new Object())));
    }
}
