package io.ragsearch.operator.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class LimitQuantitiesTest {

    @Test
    void theSameCpuAmountHasOneSpelling() {
        assertEquals("2", LimitQuantities.cpu(millis("2")));
        assertEquals("2", LimitQuantities.cpu(millis("2000m")));
        assertEquals("1500m", LimitQuantities.cpu(millis("1.5")));
        assertEquals("250m", LimitQuantities.cpu(millis("250m")));
    }

    @Test
    void theSameMemoryAmountHasOneSpellingAndCommonFormsStayAsWritten() {
        assertEquals("2Gi", LimitQuantities.memory(bytes("2048Mi")));
        assertEquals("2Gi", LimitQuantities.memory(bytes("2Gi")));
        assertEquals("1500Mi", LimitQuantities.memory(bytes("1500Mi")));
        assertEquals("1000Gi", LimitQuantities.memory(bytes("1000Gi")));
        assertEquals("1536Mi", LimitQuantities.memory(bytes("1.5Gi")));
        assertEquals("2G", LimitQuantities.memory(bytes("2G")));
        assertEquals("512M", LimitQuantities.memory(bytes("512M")));
        assertEquals("1001", LimitQuantities.memory(bytes("1001")));
    }

    @Test
    void whatIsWrittenMeansTheSameAmount() {
        for (String q : new String[] {"1500Mi", "1.5Gi", "2G", "512M", "3Ti", "1001", "7Ki", "5k"}) {
            assertEquals(bytes(q), bytes(LimitQuantities.memory(bytes(q))), q);
        }
        for (String q : new String[] {"2", "2000m", "1.5", "250m", "16"}) {
            assertEquals(millis(q), millis(LimitQuantities.cpu(millis(q))), q);
        }
    }

    private static long bytes(String q) {
        return Quantity.getAmountInBytes(new Quantity(q)).longValueExact();
    }

    private static long millis(String q) {
        return Quantity.getAmountInBytes(new Quantity(q)).multiply(BigDecimal.valueOf(1000)).longValueExact();
    }
}
