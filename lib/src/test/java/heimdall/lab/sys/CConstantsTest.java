package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import heimdall.lab.Errno;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.Phase;
import heimdall.lab.fixtures.Fixtures;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * Every C constant the Java side copies (the broker's and the runner's ABI in {@code native/include}, the
 * supervisors' shared deadlines, the shared region's offsets, libc's flags, errno values) equals its C
 * twin as this machine's C compiler sees the headers: each group is compiled into a small C program that
 * prints the C values, then compared with the Java fields, read by reflection. A class mirrored field by
 * field ({@code BrokerNative}, {@code ChildSpec}'s header) has EVERY constant compared, so a new one
 * without a C twin fails here until it is named (or said to be Java's own, with why).
 */
class CConstantsTest {
    /** A Java constant and the C expression that must have its value. */
    record Twin(String java, long value, boolean isInt, String c) {}

    @TempDir
    Path tmp;

    @Test
    void theBrokersAbiAndTheSupervisorsDeadlinesAreHlBrokerH() throws Exception {
        Map<String, String> renamed = Map.of("NOTIF_FLAG_CONTINUE", "SECCOMP_USER_NOTIF_FLAG_CONTINUE");
        List<Twin> twins = every(
                Class.forName("heimdall.lab.broker.BrokerNative"), name -> renamed.getOrDefault(name, "HL_" + name));
        assertTrue(twins.size() >= 60, "BrokerNative's constants: " + twins.size());
        compare(List.of("hl_broker.h", "linux/seccomp.h"), twins);
    }

    @Test
    void theRunnersAbiIsHeimdallShmH() throws Exception {
        Map<String, String> renamed = Map.of(
                "MAX_PROGRAMS", "HL_MAX_PROGS",
                "HEADER_SIZE", "HL_SHM_HEADER_SIZE",
                // the runner's own bound (hl_shm_layout), a product in C
                "MAX_WARMUP", "HL_MAX_COUNT * 16");
        List<Twin> twins = new ArrayList<>(every(ChildSpec.class, name -> {
            if (renamed.containsKey(name)) {
                return renamed.get(name);
            }
            if (name.startsWith("H_")) {
                return "offsetof(struct hl_shm_header, " + name.substring(2).toLowerCase(Locale.ROOT) + ")";
            }
            return "HL_" + name;
        }));
        twins.addAll(every(NativeLib.class, name -> "HL_" + name));
        for (Call.Kind k : Call.Kind.values()) {
            twins.add(new Twin("Call.Kind." + k, k.code(), true, "HL_CALL_" + k));
        }
        for (Phase p : Phase.values()) {
            twins.add(new Twin("Phase." + p, p.ordinal(), true, "HL_PHASE_" + p));
        }
        compare(List.of("heimdall.h", "heimdall_shm.h"), twins);
    }

    @Test
    void theLandlockRulesetsLayoutIsHlLandlockH() throws Exception {
        List<Twin> twins =
                new ArrayList<>(every(Class.forName("heimdall.lab.landlock.Landlock"), name -> "HL_LANDLOCK_" + name));
        twins.add(twin("heimdall.lab.landlock.LandlockRight", "NEWEST_ABI", "HL_LANDLOCK_ABI_KNOWN"));
        compare(List.of("hl_landlock.h"), twins);
    }

    /**
     * The kernel follower's loader ABI, hooks and steps ({@code native/follower/follower.h}) as the Java side
     * passes them ({@code FollowerNative.ABI}, {@code Hook.code()}, {@code FollowStep.code()}).
     */
    @Test
    void theFollowersAbiHooksAndStepsAreFollowerH() throws Exception {
        List<Twin> twins =
                new ArrayList<>(every(Class.forName("heimdall.lab.follower.FollowerNative"), name -> "HF_" + name));
        for (Object hook : Class.forName("heimdall.lab.follower.Hook").getEnumConstants()) {
            twins.add(new Twin("Hook." + hook, code(hook), true, "HF_HOOK_" + hook));
        }
        for (Object step : Class.forName("heimdall.lab.follower.FollowStep").getEnumConstants()) {
            twins.add(new Twin("FollowStep." + step, code(step), true, "HF_STEP_" + step));
        }
        assertEquals(1 + 2 + 4, twins.size(), "the ABI, two hooks and four steps: " + twins);
        compareWith(Fixtures.home().resolve("native/follower"), List.of("linux/types.h", "follower.h"), twins);
    }

    /** An enum constant's native code ({@code code()}, package-private in its package). */
    private static long code(Object constant) throws ReflectiveOperationException {
        java.lang.reflect.Method m = constant.getClass().getDeclaredMethod("code");
        m.setAccessible(true);
        return ((Number) m.invoke(constant)).longValue();
    }

    @Test
    void errnoValuesAreErrnoH() throws Exception {
        List<Twin> twins = new ArrayList<>();
        new TreeMap<>(Errno.all()).forEach((name, value) -> twins.add(new Twin("Errno." + name, value, true, name)));
        assertTrue(twins.size() >= 30, "Errno's names: " + twins);
        compare(List.of("errno.h"), twins);
    }

    /** The comparison can fail: a Java value that is not its twin's is named with both values. */
    @Test
    void aConstantThatDiffersFromItsTwinFails() {
        AssertionFailedError e = assertThrows(
                AssertionFailedError.class,
                () -> compare(List.of("errno.h"), List.of(new Twin("Wrong.EACCES", 12, true, "EACCES"))));
        assertTrue(e.getMessage().contains("Wrong.EACCES = 12 but EACCES = 13"), e.getMessage());
    }

    @Test
    void libcFlagsAndNumbersAreTheSystemHeaders() throws Exception {
        List<Twin> twins = new ArrayList<>();
        for (String f : List.of("O_RDONLY", "O_NONBLOCK", "O_DIRECTORY", "O_NOFOLLOW", "O_CLOEXEC", "AT_FDCWD")) {
            twins.add(twin("heimdall.lab.HostileFiles", f, f));
        }
        twins.add(twin("heimdall.lab.sys.Renames", "AT_FDCWD", "AT_FDCWD"));
        twins.add(twin("heimdall.lab.sys.Renames", "RENAME_NOREPLACE", "RENAME_NOREPLACE"));
        twins.add(twin("heimdall.lab.load.ThreadControl", "PRIO_PROCESS", "PRIO_PROCESS"));
        String n = "heimdall.lab.broker.Notification";
        twins.add(twin(n, "OPEN", "SYS_open"));
        twins.add(twin(n, "CREAT", "SYS_creat"));
        twins.add(twin(n, "OPENAT", "SYS_openat"));
        twins.add(twin(n, "OPENAT2", "SYS_openat2"));
        twins.add(twin(n, "ARCH_X86_64", "AUDIT_ARCH_X86_64"));
        twins.add(twin(n, "PATH_MAX", "PATH_MAX"));
        for (String f : List.of("S_IFMT", "S_IFREG", "S_IFDIR")) {
            twins.add(twin(n, f, f));
        }
        compare(
                List.of(
                        "fcntl.h",
                        "stdio.h",
                        "sys/resource.h",
                        "sys/stat.h",
                        "sys/syscall.h",
                        "linux/audit.h",
                        "linux/limits.h"),
                twins);
    }

    /**
     * Every static final int or long of {@code c} (a class that mirrors C field by field) with its C twin
     * {@code cName(field)}: a new constant there is compared too, and fails to compile here until its twin exists.
     */
    private static List<Twin> every(Class<?> c, Function<String, String> cName) throws IllegalAccessException {
        List<Twin> twins = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            int m = f.getModifiers();
            if (Modifier.isStatic(m)
                    && Modifier.isFinal(m)
                    && (f.getType() == int.class || f.getType() == long.class)) {
                f.setAccessible(true);
                twins.add(new Twin(
                        c.getSimpleName() + "." + f.getName(),
                        f.getLong(null),
                        f.getType() == int.class,
                        cName.apply(f.getName())));
            }
        }
        return twins;
    }

    /** One named field of a class (by name: some are package-private elsewhere) and its C twin. */
    private static Twin twin(String className, String field, String c) throws ReflectiveOperationException {
        Field f = Class.forName(className).getDeclaredField(field);
        f.setAccessible(true);
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return new Twin(simple + "." + field, f.getLong(null), f.getType() == int.class, c);
    }

    /** Compiles a program printing every twin's C value with {@code headers} included, and compares. */
    private void compare(List<String> headers, List<Twin> twins) throws IOException, InterruptedException {
        compareWith(Fixtures.home().resolve("native/include"), headers, twins);
    }

    /** {@link #compare}, with the headers found in {@code include}. */
    private void compareWith(Path include, List<String> headers, List<Twin> twins)
            throws IOException, InterruptedException {
        StringBuilder src = new StringBuilder("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n");
        headers.forEach(h -> src.append("#include <").append(h).append(">\n"));
        src.append("int main(void) {\n");
        for (int i = 0; i < twins.size(); i++) {
            src.append("    printf(\"%d %lld\\n\", ")
                    .append(i)
                    .append(", (long long)(")
                    .append(twins.get(i).c())
                    .append("));\n");
        }
        src.append("    return 0;\n}\n");
        Path c = Files.writeString(tmp.resolve("constants.c"), src);
        Path exe = tmp.resolve("constants");
        String compiled =
                run(List.of("gcc", "-std=gnu11", "-D_GNU_SOURCE", "-I" + include, "-o", exe.toString(), c.toString()));
        assertTrue(Files.isExecutable(exe), "the C program did not compile:\n" + compiled + "\n" + src);
        Map<Integer, Long> cValues = new LinkedHashMap<>();
        for (String line : run(List.of(exe.toString())).lines().toList()) {
            String[] w = line.split(" ");
            cValues.put(Integer.parseInt(w[0]), Long.parseLong(w[1]));
        }
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < twins.size(); i++) {
            Twin t = twins.get(i);
            long cv = cValues.get(i);
            // a Java int holds an unsigned 32-bit C value as its bits (0xC000003E is negative in Java)
            boolean same = cv == t.value() || (t.isInt() && cv == (t.value() & 0xffff_ffffL));
            if (!same) {
                differ.add(t.java() + " = " + t.value() + " but " + t.c() + " = " + cv);
            }
        }
        if (!differ.isEmpty()) {
            fail("Java constants differ from their C twins in " + headers + ":\n" + String.join("\n", differ));
        }
        assertEquals(twins.size(), cValues.size());
        System.out.println("CConstantsTest: " + twins.size() + " constants equal their C twins in " + headers);
    }

    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd));
        if (p.exitValue() != 0) {
            return out + "\n(exit " + p.exitValue() + ")";
        }
        return out;
    }
}
