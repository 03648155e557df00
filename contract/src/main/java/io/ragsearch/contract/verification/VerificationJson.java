package io.ragsearch.contract.verification;

import io.ragsearch.contract.ContractException;
import io.ragsearch.contract.json.JsonReader;
import io.ragsearch.contract.json.JsonWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A verification's JSON form, written by the server and read by the operator. Strict about the
 * fields a decision rests on — a missing state or verdict must not read as a pass — and blind
 * to fields it does not know, so a newer server can add some for people.
 */
public final class VerificationJson {
    private VerificationJson() {
    }

    public static String write(Verification v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", v.state().json());
        m.put("set", v.set());
        m.put("candidate", v.candidate());
        m.put("baseline", v.baseline());
        m.put("startedAt", v.startedAt());
        m.put("finishedAt", v.finishedAt());
        m.put("passed", v.passed());
        m.put("failed", v.failed());
        m.put("differences", v.differences());
        List<Object> rows = new ArrayList<>();
        for (Verification.Row r : v.checks()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", r.id());
            row.put("kind", r.kind());
            row.put("verdict", r.passed() ? "pass" : "fail");
            row.put("baseline", r.baseline());
            row.put("candidate", r.candidate());
            row.put("difference", r.difference());
            row.put("problem", r.problem());
            rows.add(row);
        }
        m.put("checks", rows);
        m.put("error", v.error());
        return JsonWriter.write(m);
    }

    public static Verification parse(String json) {
        if (!(JsonReader.parse(json) instanceof Map<?, ?> root)) {
            throw new ContractException("a verification is a JSON object");
        }
        Verification.State state = state(text(root, "state", true));
        List<Verification.Row> rows = new ArrayList<>();
        if (!(root.get("checks") instanceof List<?> list)) {
            throw new ContractException("verification field checks must be a list");
        }
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> row)) {
                throw new ContractException("verification field checks[" + i + "] must be an object");
            }
            String where = "checks[" + i + "].";
            rows.add(new Verification.Row(text(row, "id", true, where), text(row, "kind", true, where),
                    verdict(text(row, "verdict", true, where), where), text(row, "baseline", false, where),
                    text(row, "candidate", false, where), text(row, "difference", false, where), text(row, "problem", false, where)));
        }
        Verification v = new Verification(state, text(root, "set", false), text(root, "candidate", false),
                text(root, "baseline", false), text(root, "startedAt", true), text(root, "finishedAt", false),
                count(root, "passed"), count(root, "failed"), count(root, "differences"), rows, text(root, "error", false));
        long failedRows = rows.stream().filter(r -> !r.passed()).count();
        if (v.finished() && (v.failed() != failedRows || v.passed() != rows.size() - failedRows)) {
            throw new ContractException("verification counts (" + v.passed() + " passed, " + v.failed()
                    + " failed) do not match its " + rows.size() + " checks");
        }
        if (state == Verification.State.PASSED && (failedRows > 0 || rows.isEmpty() || v.error() != null)) {
            throw new ContractException("a passed verification has at least one check and none failed");
        }
        return v;
    }

    private static Verification.State state(String s) {
        for (Verification.State st : Verification.State.values()) {
            if (st.json().equals(s)) {
                return st;
            }
        }
        throw new ContractException("verification field state must be running, passed or failed, got '" + s + "'");
    }

    private static boolean verdict(String s, String where) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "pass" -> true;
            case "fail" -> false;
            default -> throw new ContractException("verification field " + where + "verdict must be pass or fail, got '" + s + "'");
        };
    }

    private static String text(Map<?, ?> m, String name, boolean required) {
        return text(m, name, required, "");
    }

    private static String text(Map<?, ?> m, String name, boolean required, String where) {
        Object v = m.get(name);
        if (v == null) {
            if (required) {
                throw new ContractException("verification field " + where + name + " is missing");
            }
            return null;
        }
        if (v instanceof String s) {
            return s;
        }
        throw new ContractException("verification field " + where + name + " must be a string");
    }

    private static int count(Map<?, ?> m, String name) {
        if (!(m.get(name) instanceof BigDecimal n)) {
            throw new ContractException("verification field " + name + " must be a whole number");
        }
        try {
            int c = n.intValueExact();
            if (c < 0) {
                throw new ContractException("verification field " + name + " must not be negative, got " + c);
            }
            return c;
        } catch (ArithmeticException e) {
            throw new ContractException("verification field " + name + " must be a whole number, got " + n);
        }
    }
}
