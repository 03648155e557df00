package io.ragsearch.operator.spec;

import io.fabric8.kubernetes.api.model.Quantity;
import io.ragsearch.operator.model.Resources;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Kubernetes quantities in a spec: parsed, range-checked, every problem named by its field. */
final class Quantities {

    /** The CRD's own pattern: what the API server admits, render admits. */
    private static final Pattern QUANTITY = Pattern.compile(Resources.QUANTITY);

    /** An allowed range of bytes, with the words the problem uses. */
    record ByteRange(long min, String minText, long max, String maxText, String belowWhy) {
    }

    private Quantities() {
    }

    /** Bytes of a quantity in the range; null (and a problem naming the field and the range) otherwise. */
    static Long bytes(String at, String text, ByteRange range, List<String> problems) {
        Optional<BigDecimal> bytes = amount(at, text, problems).map(q -> q.setScale(0, RoundingMode.CEILING));
        if (bytes.isEmpty()) {
            return null;
        }
        if (bytes.get().compareTo(BigDecimal.valueOf(range.min())) < 0) {
            problems.add(at + " " + text + " is below " + range.minText() + ", " + range.belowWhy());
            return null;
        }
        if (bytes.get().compareTo(BigDecimal.valueOf(range.max())) > 0) {
            problems.add(at + " " + text + " is out of range: between " + range.minText() + " and " + range.maxText());
            return null;
        }
        return bytes.get().longValueExact();
    }

    /** Millicores of a CPU quantity in [1m, maxMillis]; null (and a problem) otherwise. */
    static Long millicores(String at, String text, long maxMillis, List<String> problems) {
        return amount(at, text, problems).map(q -> q.movePointRight(3).setScale(0, RoundingMode.FLOOR)).map(millis -> {
            if (millis.compareTo(BigDecimal.ONE) < 0 || millis.compareTo(BigDecimal.valueOf(maxMillis)) > 0) {
                problems.add(at + " " + text + " is out of range: between 1m and " + maxMillis / 1000 + " (cores)");
                return null;
            }
            return millis.longValueExact();
        }).orElse(null);
    }

    private static Optional<BigDecimal> amount(String at, String text, List<String> problems) {
        String s = text.strip();
        if (!QUANTITY.matcher(s).matches()) {
            problems.add(at + " '" + text + "' is not a Kubernetes quantity (e.g. 1500Mi, 2Gi, 500m, 2, 1e9)");
            return Optional.empty();
        }
        BigDecimal amount;
        try {
            amount = Quantity.getAmountInBytes(new Quantity(s.startsWith("+") ? s.substring(1) : s));
        } catch (ArithmeticException | IllegalArgumentException e) {
            problems.add(at + " '" + text + "' is out of range");
            return Optional.empty();
        }
        if (amount.signum() <= 0) {
            problems.add(at + " must be positive, got " + text);
            return Optional.empty();
        }
        return Optional.of(amount);
    }
}
