package heimdall.lab.sys;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the kernel does against CPU side channels, which sets what every system call's entry and exit
 * costs (page-table isolation alone can double it): the mitigation parameters given on the kernel
 * command line and the kernel's own verdict per vulnerability in
 * {@code /sys/devices/system/cpu/vulnerabilities/}. Only the mitigation parameters of
 * {@code /proc/cmdline} are kept, never the whole line.
 *
 * @param cmdlineMitigations the value of {@code mitigations=} (the last one given); {@code null} when the
 *     command line does not set it (then the kernel's built-in default applies) or was not read
 * @param cmdlinePti the value of {@code pti=}; {@code null} when not given (a bare {@code nopti} shows in
 *     {@code cmdlineParams}) or not read
 * @param cmdlineParams every mitigation parameter on the command line, as written ({@code mitigations=off},
 *     {@code nopti}, {@code spectre_v2=retpoline}); {@code null} when {@code /proc/cmdline} was not read
 * @param vulnerabilities file name to its text ({@code meltdown: "Mitigation: PTI"}); {@code null} when the
 *     folder was not read
 * @param unread field name to the reason it is {@code null}
 */
public record Mitigations(
        String cmdlineMitigations,
        String cmdlinePti,
        List<String> cmdlineParams,
        Map<String, String> vulnerabilities,
        Map<String, String> unread) {
    static final Path CMDLINE = Path.of("/proc/cmdline");
    static final Path VULNERABILITIES = Path.of("/sys/devices/system/cpu/vulnerabilities");

    /** Kernel parameters about CPU side-channel mitigations (Documentation/admin-guide/kernel-parameters.txt). */
    static final Set<String> PARAMS = Set.of(
            "mitigations",
            "pti",
            "nopti",
            "kpti",
            "nospectre_v1",
            "nospectre_v2",
            "spectre_v2",
            "spectre_v2_user",
            "spectre_bhi",
            "nospectre_bhb",
            "spec_store_bypass_disable",
            "nospec_store_bypass_disable",
            "ssbd",
            "l1tf",
            "mds",
            "tsx",
            "tsx_async_abort",
            "mmio_stale_data",
            "retbleed",
            "srbds",
            "gather_data_sampling",
            "reg_file_data_sampling",
            "spec_rstack_overflow",
            "indirect_target_selection",
            "tsa",
            "vmscape",
            "nosmt",
            "retpoline");

    /** Reads the command line and the vulnerabilities folder now. */
    public static Mitigations capture() {
        Map<String, String> unread = new LinkedHashMap<>();
        String cmdline = SysRead.text(CMDLINE, unread, "cmdline_params");
        Map<String, String> vulns = null;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(VULNERABILITIES)) {
            Map<String, String> found = new TreeMap<>();
            for (Path f : dir) {
                String text = SysRead.text(f, unread, "vulnerabilities/" + f.getFileName());
                if (text != null) {
                    found.put(f.getFileName().toString(), text);
                }
            }
            vulns = Collections.unmodifiableMap(found);
        } catch (IOException | RuntimeException e) {
            unread.put("vulnerabilities", SysRead.why(VULNERABILITIES, e));
        }
        if (cmdline == null) {
            String why = unread.get("cmdline_params");
            unread.put("cmdline_mitigations", why);
            unread.put("cmdline_pti", why);
            return new Mitigations(null, null, null, vulns, Collections.unmodifiableMap(unread));
        }
        Mitigations m = fromCmdline(cmdline);
        return new Mitigations(
                m.cmdlineMitigations, m.cmdlinePti, m.cmdlineParams, vulns, Collections.unmodifiableMap(unread));
    }

    /**
     * The command-line fields from the text of {@code /proc/cmdline} (vulnerabilities {@code null}, nothing unread).
     */
    public static Mitigations fromCmdline(String cmdline) {
        String mitigations = null;
        String pti = null;
        List<String> params = new ArrayList<>();
        for (String p : kernelParams(cmdline)) {
            int eq = p.indexOf('=');
            String name = eq < 0 ? p : p.substring(0, eq);
            // the kernel treats - and _ in parameter names alike
            String normal = name.replace('-', '_');
            if (!PARAMS.contains(normal)) {
                continue;
            }
            params.add(p);
            String value = eq < 0 ? null : p.substring(eq + 1);
            if (normal.equals("mitigations") && value != null) {
                mitigations = value;
            } else if (normal.equals("pti") && value != null) {
                pti = value;
            }
        }
        return new Mitigations(mitigations, pti, List.copyOf(params), null, Map.of());
    }

    /**
     * The kernel's own parameters in a command line, split as the kernel splits them: on blanks outside
     * double quotes, quotes removed, stopping at a bare {@code --} (what follows is for init).
     */
    public static List<String> kernelParams(String cmdline) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i <= cmdline.length(); i++) {
            char c = i < cmdline.length() ? cmdline.charAt(i) : ' ';
            if (c == '"') {
                quoted = !quoted;
                any = true;
            } else if (!quoted && Character.isWhitespace(c)) {
                if (any) {
                    String p = cur.toString();
                    if (p.equals("--")) {
                        return out;
                    }
                    out.add(p);
                }
                cur.setLength(0);
                any = false;
            } else {
                cur.append(c);
                any = true;
            }
        }
        return out;
    }

    /** For environment.json's {@code cpu_mitigations}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cmdline_mitigations", cmdlineMitigations);
        m.put("cmdline_pti", cmdlinePti);
        m.put("cmdline_params", cmdlineParams);
        m.put("vulnerabilities", vulnerabilities);
        m.put("unread", unread);
        return m;
    }
}
