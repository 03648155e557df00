package io.ragsearch.operator.structure;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IllegalArgumentException("not a class file");
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8(in.readUTF(), names);
                    case 3, 4 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++; // takes two slots
                    }
                    case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
                    case 9, 10, 11, 12, 17, 18 -> in.readInt();
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    default -> throw new IllegalArgumentException("unknown constant pool tag " + tag);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
