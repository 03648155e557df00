package io.ragsearch.operator.naming;

import java.util.regex.Pattern;

/**
 * The API server's own rules for the names and keys a RagSearch carries into the objects the
 * operator writes, so that {@code render} and the reconciler refuse what a cluster would refuse
 * (and, since every rule excludes line breaks and YAML's markers, nothing a name holds can become
 * structure). Each method answers null when the value is valid, else one line naming the field,
 * the value (escaped, shortened) and the rule.
 *
 * <p>Rules as Kubernetes states them (apimachinery's validation): DNS-1123 label (at most 63
 * characters of lower-case letters, digits and '-', starting and ending alphanumeric), DNS-1123
 * subdomain (at most 253, such labels joined by '.'), DNS-1035 label (a DNS-1123 label starting
 * with a letter; Service names), qualified name (label and annotation keys: an optional DNS-1123
 * subdomain prefix and '/', then at most 63 of letters, digits, '-', '_', '.', alphanumeric at
 * both ends), label value (empty, or at most 63 in the qualified name's alphabet), ConfigMap key
 * (at most 253 of letters, digits, '-', '_', '.'). Image references follow the container
 * registries' reference grammar: [host[:port]/]path[:tag][@algorithm:hex].
 */
public final class KubeNames {

    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS1123_LABEL = Pattern.compile(LABEL);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
    private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern QUALIFIED_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern CONFIG_MAP_KEY = Pattern.compile("[-._a-zA-Z0-9]+");

    private static final String DOMAIN_PART = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
    private static final String PATH_PART = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
    private static final Pattern IMAGE = Pattern.compile(
            "(?:" + DOMAIN_PART + "(?:\\." + DOMAIN_PART + ")*(?::[0-9]+)?/)?" // registry host, when the first part names one
                    + PATH_PART + "(?:/" + PATH_PART + ")*"
                    + "(?::[\\w][\\w.-]{0,127})?"
                    + "(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?");
    private static final int MAX_IMAGE = 512;
    private static final int SHOWN = 80;

    private KubeNames() {
    }

    /** Namespaces and the like: a DNS-1123 label. */
    public static String dns1123Label(String field, String value) {
        String missing = missing(field, value);
        if (missing != null) {
            return missing;
        }
        if (value.length() > 63 || !DNS1123_LABEL.matcher(value).matches()) {
            return bad(field, value, "a DNS-1123 label: at most 63 lower-case letters, digits and '-', starting and ending "
                    + "with a letter or digit");
        }
        return null;
    }

    /** Names of Secrets, ConfigMaps, claims, priority classes: a DNS-1123 subdomain. */
    public static String dns1123Subdomain(String field, String value) {
        String missing = missing(field, value);
        if (missing != null) {
            return missing;
        }
        if (value.length() > 253 || !DNS1123_SUBDOMAIN.matcher(value).matches()) {
            return bad(field, value, "a DNS-1123 subdomain: at most 253 characters, lower-case letters, digits, '-' and '.', "
                    + "starting and ending with a letter or digit");
        }
        return null;
    }

    /** A name that also names a Service: a DNS-1035 label. */
    public static String dns1035Label(String field, String value) {
        String missing = missing(field, value);
        if (missing != null) {
            return missing;
        }
        if (value.length() > 63 || !DNS1035_LABEL.matcher(value).matches()) {
            return bad(field, value, "a DNS-1035 label (it names the Service): at most 63 lower-case letters, digits and '-', "
                    + "starting with a letter and ending with a letter or digit");
        }
        return null;
    }

    /** A label or annotation key: [prefix/]name, the prefix a DNS-1123 subdomain, the name at most 63. */
    public static String qualifiedName(String field, String key) {
        String missing = missing(field, key);
        if (missing != null) {
            return missing;
        }
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
            if (prefix.isEmpty() || prefix.length() > 253 || !DNS1123_SUBDOMAIN.matcher(prefix).matches()) {
                return bad(field, key, "a key whose prefix (before '/') is a DNS-1123 subdomain");
            }
        }
        if (name.isEmpty() || name.length() > 63 || !QUALIFIED_NAME.matcher(name).matches()) {
            return bad(field, key, "a key whose name (after any prefix/) has at most 63 letters, digits, '-', '_' and '.', "
                    + "starting and ending with a letter or digit");
        }
        return null;
    }

    /** A label value: empty, or at most 63 letters, digits, '-', '_' and '.', alphanumeric at both ends. */
    public static String labelValue(String field, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (value.length() > 63 || !QUALIFIED_NAME.matcher(value).matches()) {
            return bad(field, value, "a label value: empty, or at most 63 letters, digits, '-', '_' and '.', starting and ending "
                    + "with a letter or digit");
        }
        return null;
    }

    /** A key of a ConfigMap's data. */
    public static String configMapKey(String field, String value) {
        String missing = missing(field, value);
        if (missing != null) {
            return missing;
        }
        if (value.length() > 253 || !CONFIG_MAP_KEY.matcher(value).matches() || value.equals(".") || value.equals("..")) {
            return bad(field, value, "a ConfigMap key: at most 253 letters, digits, '-', '_' and '.'");
        }
        return null;
    }

    /** A container image reference, such as registry.example:5000/team/search-server:0.1.0 or …@sha256:&lt;hex&gt;. */
    public static String image(String field, String value) {
        String missing = missing(field, value);
        if (missing != null) {
            return missing;
        }
        if (value.length() > MAX_IMAGE || !IMAGE.matcher(value).matches()) {
            return bad(field, value, "an image reference: [registry[:port]/]lower-case/path[:tag][@sha256:digest], no spaces");
        }
        return null;
    }

    private static String missing(String field, String value) {
        return value == null || value.isEmpty() ? field + " is required" : null;
    }

    private static String bad(String field, String value, String rule) {
        return field + " '" + shown(value) + "' is not " + rule;
    }

    /** The value as a message may show it: control characters escaped (a line break stays visible), long values cut. */
    public static String shown(String value) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < value.length() && b.length() < SHOWN; i++) {
            char c = value.charAt(i);
            if (c == '\n') {
                b.append("\\n");
            } else if (c == '\r') {
                b.append("\\r");
            } else if (c == '\t') {
                b.append("\\t");
            } else if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                    || Character.getType(c) == Character.LINE_SEPARATOR || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.length() >= SHOWN && value.length() > SHOWN ? b + "…" : b.toString();
    }
}
