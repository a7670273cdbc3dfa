package heimdall.lab.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code profile gen}: turns observations into an OCI runtime-spec {@code LinuxSeccomp} profile.
 *
 * <ul>
 *   <li>{@code defaultAction} {@code SCMP_ACT_KILL_PROCESS}, {@code architectures} {@code [SCMP_ARCH_X86_64]};
 *   <li>one {@code SCMP_ACT_ALLOW} entry naming every observed call whose arguments do not matter
 *       (names sorted), so those calls stay answerable from the kernel's action cache;
 *   <li>for each argument-sensitive call ({@link ArgumentSensitive}), one {@code SCMP_ACT_ALLOW} entry
 *       per observed value tuple, with one {@code SCMP_CMP_EQ} comparison per argument
 *       ({@code valueTwo} 0), sorted by name then by unsigned values.
 * </ul>
 *
 * Output depends only on the observations (no dates, no paths), so regenerating gives the same bytes.
 */
public final class ProfileGen {
    public static final String DEFAULT_ACTION = "SCMP_ACT_KILL_PROCESS";
    public static final String ALLOW = "SCMP_ACT_ALLOW";
    public static final String ARCH = "SCMP_ARCH_X86_64";
    public static final String EQ = "SCMP_CMP_EQ";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ProfileGen() {}

    /** The profile as JSON text: one field a line, one syscalls entry a line, trailing newline. */
    public static String generate(Observations o, String where) {
        ObjectNode root = JSON.createObjectNode();
        root.put("defaultAction", DEFAULT_ACTION);
        root.putArray("architectures").add(ARCH);
        ArrayNode syscalls = root.putArray("syscalls");

        TreeSet<String> bare = new TreeSet<>();
        List<Observations.Call> ruled = new ArrayList<>();
        for (Observations.Call c : o.calls()) {
            Optional<ArgumentSensitive.Call> rule = ArgumentSensitive.of(c.name());
            if (c.args().isPresent()) {
                ruled.add(c);
            } else if (rule.isPresent()) {
                throw BadInput.at(
                        where,
                        "syscalls." + c.name() + ".args",
                        "an argument-sensitive call must carry its observed arguments "
                                + rule.get().names() + "; without them gen would allow every value");
            } else {
                bare.add(c.name());
            }
        }
        if (!bare.isEmpty()) {
            ObjectNode allow = syscalls.addObject();
            ArrayNode names = allow.putArray("names");
            bare.forEach(names::add);
            allow.put("action", ALLOW);
        }
        ruled.sort((a, b) -> a.name().compareTo(b.name()));
        for (Observations.Call c : ruled) {
            Observations.Args args = c.args().get();
            if (args.values().isEmpty()) {
                throw BadInput.at(where, "syscalls." + c.name() + ".args.values", "no observed values");
            }
            TreeSet<List<Long>> tuples = new TreeSet<>(Probe.UNSIGNED_TUPLES);
            tuples.addAll(args.values());
            for (List<Long> tuple : tuples) {
                ObjectNode entry = syscalls.addObject();
                entry.putArray("names").add(c.name());
                entry.put("action", ALLOW);
                ArrayNode cmp = entry.putArray("args");
                for (int i = 0; i < tuple.size(); i++) {
                    ObjectNode a = cmp.addObject();
                    a.put("index", args.indices().get(i));
                    a.put("value", ObservationsJson.unsigned(tuple.get(i)));
                    a.put("valueTwo", 0);
                    a.put("op", EQ);
                }
            }
        }
        return CompactJson.write(root);
    }
}
