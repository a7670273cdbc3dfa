package heimdall.lab.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileJsonTest {
    static final SyscallTable T = SyscallTable.x86_64();
    static final HostConditions HOST = new HostConditions("amd64", "6.18.44", HostConditions.CONTAINER_DEFAULT_CAPS);

    static ProfileJson.Loaded parse(String json) {
        return ProfileJson.parse(json, "p.json", HOST, T);
    }

    static BadInput bad(String json) {
        return assertThrows(BadInput.class, () -> parse(json));
    }

    @Test
    void readsEveryFieldActionAndOp() {
        String json = """
                {"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38, "architectures": ["SCMP_ARCH_X86_64"],
                 "syscalls": [
                  {"names": ["read", "write"], "action": "SCMP_ACT_ALLOW"},
                  {"names": ["mprotect"], "action": "SCMP_ACT_ALLOW",
                   "args": [{"index": 2, "value": 18446744073709551615, "valueTwo": 1, "op": "SCMP_CMP_MASKED_EQ"}]},
                  {"names": ["kill"], "action": "SCMP_ACT_KILL"},
                  {"names": ["getpid"], "action": "SCMP_ACT_TRACE", "errnoRet": 7},
                  {"names": ["gettid"], "action": "SCMP_ACT_ERRNO"},
                  {"names": ["openat"], "action": "SCMP_ACT_NOTIFY", "args": [
                    {"index": 0, "value": 1, "op": "SCMP_CMP_NE"}, {"index": 1, "value": 2, "op": "SCMP_CMP_LT"},
                    {"index": 3, "value": 3, "op": "SCMP_CMP_LE"}, {"index": 4, "value": 4, "op": "SCMP_CMP_GE"},
                    {"index": 5, "value": 5, "op": "SCMP_CMP_GT"}]}
                 ]}""";
        ProfileJson.Loaded l = parse(json);
        Profile p = l.profile();
        assertEquals(Action.errno(38), p.defaultAction());
        assertEquals(6, p.syscalls().size());
        assertEquals(
                new ArgRule(2, -1L, 1, Op.MASKED_EQ), p.syscalls().get(1).args().get(0));
        assertEquals(Action.KILL_THREAD, p.syscalls().get(2).action());
        assertEquals(Action.trace(7), p.syscalls().get(3).action());
        assertEquals(Action.errno(1), p.syscalls().get(4).action(), "ERRNO without errnoRet is EPERM, as in runc");
        assertEquals(
                List.of(Op.NE, Op.LT, Op.LE, Op.GE, Op.GT),
                p.syscalls().get(5).args().stream().map(ArgRule::op).toList());
        assertEquals(List.of(), l.warnings());
    }

    @Test
    void saveAndLoadRoundTrip(@TempDir Path dir) throws Exception {
        Profile p = Profile.builder(Action.KILL_PROCESS)
                .allow("read", "write")
                .rule(Action.errno(13), "openat", ArgRule.of(2, Op.GT, 0x8000_0000_0000_0000L))
                .rule(Action.NOTIFY, "mprotect", ArgRule.maskedEq(2, 0xffff_ffff_ffff_ffffL, 1))
                .rule(Action.LOG, "getpid")
                .rule(Action.TRAP, "gettid")
                .build();
        Path f = dir.resolve("p.json");
        ProfileJson.save(p, f);
        assertEquals(p, ProfileJson.load(f, HOST, T).profile());
    }

    @Test
    void unknownNamesAreWarnedAndDropped() {
        ProfileJson.Loaded l = parse("""
                {"defaultAction": "SCMP_ACT_KILL_PROCESS", "syscalls": [
                  {"names": ["read", "no_such_call", "stat64"], "action": "SCMP_ACT_ALLOW"},
                  {"names": ["only_unknown"], "action": "SCMP_ACT_ALLOW"}]}""");
        assertEquals(List.of("read"), l.profile().syscalls().get(0).names());
        assertEquals(1, l.profile().syscalls().size());
        assertTrue(
                l.warnings().stream()
                        .anyMatch(
                                w -> w.contains("no_such_call") && w.contains("stat64") && w.contains("only_unknown")),
                l.warnings().toString());
    }

    @Test
    void includesAndExcludesAreDecidedForTheHost() {
        String json = """
                {"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [
                  {"names": ["read"], "action": "SCMP_ACT_ALLOW", "includes": {"arches": ["amd64", "x32"]}},
                  {"names": ["write"], "action": "SCMP_ACT_ALLOW", "includes": {"arches": ["arm64"]}},
                  {"names": ["chroot"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_SYS_CHROOT"]}},
                  {"names": ["mount"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_SYS_ADMIN"]}},
                  {"names": ["umount2"], "action": "SCMP_ACT_ERRNO", "excludes": {"caps": ["CAP_SYS_ADMIN"]}},
                  {"names": ["chown"], "action": "SCMP_ACT_ERRNO", "excludes": {"caps": ["CAP_CHOWN"]}},
                  {"names": ["pidfd_open"], "action": "SCMP_ACT_ALLOW", "includes": {"minKernel": "5.3"}},
                  {"names": ["futex_waitv"], "action": "SCMP_ACT_ALLOW", "includes": {"minKernel": "7.1"}},
                  {"names": ["close"], "action": "SCMP_ACT_ALLOW", "excludes": {"arches": ["s390x"]}}
                ]}""";
        ProfileJson.Loaded l = parse(json);
        List<String> kept =
                l.profile().syscalls().stream().map(r -> r.names().get(0)).toList();
        assertEquals(List.of("read", "chroot", "umount2", "pidfd_open", "close"), kept);
        assertTrue(l.warnings().stream().anyMatch(w -> w.contains("caps") && w.contains("CAP_SYS_CHROOT")));
        ProfileJson.Loaded unknownKernel = ProfileJson.parse(
                json, "p.json", new HostConditions("amd64", "weird", HostConditions.CONTAINER_DEFAULT_CAPS), T);
        assertTrue(
                unknownKernel.warnings().stream().anyMatch(w -> w.contains("minKernel") && w.contains("not applied")));
        ProfileJson.Loaded admin =
                ProfileJson.parse(json, "p.json", new HostConditions("amd64", "6.18", Set.of("CAP_SYS_ADMIN")), T);
        assertEquals(
                List.of("read", "mount", "chown", "pidfd_open", "close"),
                admin.profile().syscalls().stream().map(r -> r.names().get(0)).toList());
    }

    @Test
    void malformedJsonNamesFileAndPlace() {
        BadInput e = bad("{\"defaultAction\": \"SCMP_ACT_ALLOW\",, }");
        assertTrue(
                e.getMessage().startsWith("p.json: line 1 column 36: not valid JSON: unexpected character ','"),
                e.getMessage());
    }

    @Test
    void unknownActionNamesTheField() {
        BadInput e = bad("""
                {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
                  {"names": ["read"], "action": "SCMP_ACT_ALLOW"},
                  {"names": ["read"], "action": "SCMP_ACT_MAYBE"}]}""");
        assertEquals(
                "p.json: syscalls[1].action: unknown action 'SCMP_ACT_MAYBE'",
                e.getMessage().split(" \\(")[0]);
        assertTrue(
                bad("{\"defaultAction\": \"ALLOW\"}").getMessage().startsWith("p.json: defaultAction: unknown action"));
    }

    @Test
    void unknownOpNamesTheField() {
        BadInput e = bad("""
                {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ERRNO",
                  "args": [{"index": 0, "value": 1, "op": "SCMP_CMP_EQ"}, {"index": 1, "value": 1, "op": "SCMP_CMP_ABOUT"}]}]}""");
        assertTrue(
                e.getMessage().startsWith("p.json: syscalls[0].args[1].op: unknown op 'SCMP_CMP_ABOUT'"),
                e.getMessage());
    }

    @Test
    void argumentIndexOverFiveNamesTheField() {
        BadInput e = bad("""
                {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ERRNO",
                  "args": [{"index": 6, "value": 1, "op": "SCMP_CMP_EQ"}]}]}""");
        assertTrue(
                e.getMessage().startsWith("p.json: syscalls[0].args[0].index: argument index must be 0..5"),
                e.getMessage());
    }

    @Test
    void missingAndMistypedFieldsNameTheField() {
        assertTrue(bad("{}").getMessage().startsWith("p.json: defaultAction: missing"));
        assertTrue(bad("{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"read\"]}]}")
                .getMessage()
                .startsWith("p.json: syscalls[0].action: missing"));
        assertTrue(bad("{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"action\": \"SCMP_ACT_ALLOW\"}]}")
                .getMessage()
                .startsWith("p.json: syscalls[0].names: missing"));
        assertTrue(bad("""
                {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ERRNO",
                  "args": [{"index": 0, "op": "SCMP_CMP_EQ"}]}]}""").getMessage().startsWith("p.json: syscalls[0].args[0].value: missing"));
        assertTrue(bad("""
                {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ERRNO",
                  "args": [{"index": 0, "value": -1, "op": "SCMP_CMP_EQ"}]}]}""").getMessage().startsWith("p.json: syscalls[0].args[0].value: value -1 is outside"));
        assertTrue(bad("""
                {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW",
                  "errnoRet": 1}]}""").getMessage().startsWith("p.json: syscalls[0].errnoRet: only"));
    }

    @Test
    void podmansProfileLoads() {
        Path podman = Path.of("/usr/share/containers/seccomp.json");
        Requires.file(podman, "Debian package golang-github-containers-common");
        ProfileJson.Loaded l = ProfileJson.load(podman, HOST, T);
        Profile p = l.profile();
        assertEquals(Action.errno(38), p.defaultAction());
        assertEquals(List.of("SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"), p.architectures());
        long[] zero = new long[6];
        int nr = T.number("getppid").getAsInt();
        assertEquals(Action.ALLOW.ret(), p.evaluate(T, nr, Profile.AUDIT_ARCH_X86_64, zero));
        assertEquals(
                Action.errno(1).ret(),
                p.evaluate(T, T.number("bpf").getAsInt(), Profile.AUDIT_ARCH_X86_64, zero),
                "bpf needs CAP_SYS_ADMIN, outside the default set");
        assertEquals(Action.ALLOW.ret(), p.evaluate(T, T.number("chroot").getAsInt(), Profile.AUDIT_ARCH_X86_64, zero));
        int socket = T.number("socket").getAsInt();
        assertEquals(
                Action.errno(22).ret(),
                p.evaluate(T, socket, Profile.AUDIT_ARCH_X86_64, new long[] {16, 0, 9, 0, 0, 0}),
                "AF_NETLINK NETLINK_AUDIT without CAP_AUDIT_WRITE");
        assertEquals(
                Action.ALLOW.ret(), p.evaluate(T, socket, Profile.AUDIT_ARCH_X86_64, new long[] {2, 1, 0, 0, 0, 0}));
        assertTrue(l.warnings().stream().anyMatch(w -> w.contains("unknown on x86_64") && w.contains("stat64")));
        assertTrue(l.warnings().stream().anyMatch(w -> w.contains("SCMP_ARCH_X86") && w.contains("not compiled")));
    }
}
