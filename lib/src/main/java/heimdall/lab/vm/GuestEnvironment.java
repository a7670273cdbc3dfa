package heimdall.lab.vm;

import java.util.Map;
import java.util.TreeMap;

/**
 * The environment a guest's command gets beyond PATH, HOME and LANG: our {@code LAB_*} variables (the toolkit's own
 * switches, e.g. {@code LAB_REQUIRE_KERNEL}) and {@code JAVA_HOME}; nothing else of ours leaks in.
 */
final class GuestEnvironment {
    private GuestEnvironment() {}

    static Map<String, String> passed() {
        return passed(System.getenv());
    }

    static Map<String, String> passed(Map<String, String> env) {
        Map<String, String> kept = new TreeMap<>();
        env.forEach((k, v) -> {
            if ((k.matches("LAB_[A-Z0-9_]+") || k.equals("JAVA_HOME")) && !v.contains("\0")) {
                kept.put(k, v);
            }
        });
        return kept;
    }
}
