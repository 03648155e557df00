package io.ragsearch.contract.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ragsearch.contract.ContractException;
import io.ragsearch.contract.Golden;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerificationJsonTest {

    @Test
    void readsTheGoldenVerification() {
        Verification v = VerificationJson.parse(Golden.text("verification.json"));
        assertEquals(Verification.State.FAILED, v.state());
        assertTrue(v.finished());
        assertEquals("http://10.0.0.7:8080/mcp", v.baseline());
        assertEquals(2, v.checks().size());
        Verification.Row leave = v.checks().get(0);
        assertFalse(leave.passed());
        assertEquals("rank 1 → refused", leave.difference());
        assertNull(v.checks().get(1).difference());
        assertEquals(List.of("annual-leave: expected employee-handbook Article 10 in the top 3, got no supporting documents"),
                v.failures());
    }

    @Test
    void writtenFormReadsBackEqual() {
        Verification golden = VerificationJson.parse(Golden.text("verification.json"));
        assertEquals(golden, VerificationJson.parse(VerificationJson.write(golden)));
        Verification running = new Verification(Verification.State.RUNNING, null, "c", "b", "2026-12-03T13:10:02Z", null, 0, 0, 0,
                List.of(), null);
        assertEquals(running, VerificationJson.parse(VerificationJson.write(running)));
    }

    @Test
    void aMissingOrUnknownStateOrVerdictIsAnErrorNotAPass() {
        String good = Golden.text("verification.json");
        assertMessage(good.replace("\"state\": \"failed\",", ""), "state is missing");
        assertMessage(good.replace("\"state\": \"failed\"", "\"state\": \"ok\""), "state must be running, passed or failed");
        assertMessage(good.replace("\"verdict\": \"fail\"", "\"verdict\": \"maybe\""), "checks[0].verdict must be pass or fail");
        assertMessage(good.replace("\"verdict\": \"fail\",", ""), "checks[0].verdict is missing");
        assertMessage(good.replace("\"passed\": 1,", "\"passed\": 1.5,"), "passed must be a whole number");
        assertMessage(good.replace("\"failed\": 1,", "\"failed\": 0,"), "counts (1 passed, 0 failed) do not match its 2 checks");
        assertMessage(good.replace("\"state\": \"failed\"", "\"state\": \"passed\"").replace("\"failed\": 1", "\"failed\": 1"),
                "a passed verification has at least one check and none failed");
        assertMessage("[]", "a verification is a JSON object");
    }

    @Test
    void unknownFieldsAreIgnored() {
        String newer = Golden.text("verification.json").replace("\"error\": null", "\"error\": null, \"seconds\": 1.2");
        assertEquals(VerificationJson.parse(Golden.text("verification.json")), VerificationJson.parse(newer));
    }

    private static void assertMessage(String json, String expected) {
        ContractException e = assertThrows(ContractException.class, () -> VerificationJson.parse(json));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
