package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.profile.HostConditions;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallTable;
import org.junit.jupiter.api.Test;

/** The rules handed to libseccomp are the ones runc hands it (no Python needed to check that). */
class LibseccompBaselineTest {
    static final SyscallTable TABLE = SyscallTable.x86_64();

    @Test
    void specMapsActionsErrnosAndComparisonsAsRuncDoes() {
        Profile p = ProfileJson.parse("""
                {"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38, "syscalls": [
                  {"names": ["getppid", "no_such_call"], "action": "SCMP_ACT_ALLOW"},
                  {"names": ["getpid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38},
                  {"names": ["getpid"], "action": "SCMP_ACT_ERRNO"},
                  {"names": ["gettid"], "action": "SCMP_ACT_KILL"},
                  {"names": ["uname"], "action": "SCMP_ACT_TRACE"},
                  {"names": ["socket"], "action": "SCMP_ACT_ALLOW", "args": [
                    {"index": 0, "value": 16, "op": "SCMP_CMP_NE"},
                    {"index": 0, "value": 1, "op": "SCMP_CMP_EQ"}]},
                  {"names": ["clone"], "action": "SCMP_ACT_ALLOW", "args": [
                    {"index": 0, "value": 2114060288, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"},
                    {"index": 1, "value": 18446744073709551615, "op": "SCMP_CMP_LE"}]}]}""", "p.json", HostConditions.thisHost(), TABLE)
                .profile();
        JsonNode spec = LibseccompBaseline.spec(p, TABLE);
        assertEquals(0x50026, spec.get("default").asInt(), "ERRNO(38) as a signed int");
        StringBuilder got = new StringBuilder();
        for (JsonNode r : spec.get("rules")) {
            got.append(r.get("name").asText())
                    .append(' ')
                    .append(r.get("nr").asInt())
                    .append(' ')
                    .append(Integer.toHexString(r.get("action").asInt()))
                    .append(' ')
                    .append(r.get("args"))
                    .append('\n');
        }
        assertEquals(
                """
                getppid 110 7fff0000 []
                getpid 39 50001 []
                gettid 186 0 []
                uname 63 7ff00001 []
                socket 41 7fff0000 [[0,"SCMP_CMP_NE",16,0]]
                socket 41 7fff0000 [[0,"SCMP_CMP_EQ",1,0]]
                clone 56 7fff0000 [[0,"SCMP_CMP_MASKED_EQ",2114060288,0],[1,"SCMP_CMP_LE",18446744073709551615,0]]
                """,
                got.toString(),
                "unknown names out, the default action's rule out, SCMP_ACT_KILL is KILL_THREAD, TRACE and ERRNO "
                        + "default to EPERM, two conditions on one argument split, MASKED_EQ as mask then value");
    }

    @Test
    void killProcessDefaultIsHandedOverAsTheBindingsSignedInt() {
        Profile p = Profile.builder(heimdall.lab.profile.Action.KILL_PROCESS)
                .allow("read")
                .build();
        assertEquals(
                Integer.MIN_VALUE,
                LibseccompBaseline.spec(p, TABLE).get("default").asInt());
        assertEquals(true, LibseccompBaseline.spec(p, TABLE).get("default").isInt());
    }
}
