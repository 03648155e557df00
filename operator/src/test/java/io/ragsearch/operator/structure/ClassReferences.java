package io.ragsearch.operator.structure;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes one compiled class refers to, read from its constant pool (class entries and the
 * type descriptors of fields, methods and generic signatures), in internal form (a/b/C).
 */
final class ClassReferences {
    private static final Pattern TYPE = Pattern.compile("L?([a-zA-Z_$][\\w$]*(?:/[\\w$]+)+)[;<]?");

    private ClassReferences() {
    }

    static Set<String> of(byte[] classFile) {
        Set<String> names = new HashSet<>();
        // The constant pool is read by the contract's test-jar, shared with the server's check.
        for (String text : io.ragsearch.contract.ClassConstants.utf8Entries(classFile)) {
            utf8(text, names);
        }
        return names;
    }

    /** Class names and descriptors are both UTF-8 entries; anything with a slash that looks like a type counts. */
    private static void utf8(String text, Set<String> names) {
        Matcher m = TYPE.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
    }
}
