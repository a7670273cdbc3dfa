package heimdall.lab.probe;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately naive profile-to-BPF translator for tests only: it exists so that the probe's
 * profiles can be installed in the real kernel before the project's compiler ({@code heimdall.lab.bpf},
 * another branch) is merged, and it reads only what {@code profile gen} writes (allow entries, EQ
 * comparisons, kill by default). One linear pass, no dispatch tree: never use it to measure anything.
 */
final class LinearFilterForTests {
    static final int LD_W_ABS = 0x20, JEQ_K = 0x15, JGE_K = 0x35, RET_K = 0x06;
    static final int AUDIT_ARCH_X86_64 = 0xc000003e;
    static final int RET_ALLOW = 0x7fff0000, RET_KILL_PROCESS = 0x80000000;
    static final int X32_SYSCALL_BIT = 0x40000000;

    private final List<int[]> insns = new ArrayList<>();

    private LinearFilterForTests() {}

    static byte[] compile(JsonNode profile, SyscallNames names) {
        if (!profile.path("defaultAction").asText().equals("SCMP_ACT_KILL_PROCESS")) {
            throw new IllegalArgumentException("only gen's profiles (default SCMP_ACT_KILL_PROCESS)");
        }
        LinearFilterForTests f = new LinearFilterForTests();
        f.add(LD_W_ABS, 0, 0, 4);
        f.add(JEQ_K, 1, 0, AUDIT_ARCH_X86_64);
        f.add(RET_K, 0, 0, RET_KILL_PROCESS);
        f.add(LD_W_ABS, 0, 0, 0);
        f.add(JGE_K, 0, 1, X32_SYSCALL_BIT);
        f.add(RET_K, 0, 0, RET_KILL_PROCESS);
        for (JsonNode e : profile.get("syscalls")) {
            if (!e.path("action").asText().equals("SCMP_ACT_ALLOW")) {
                throw new IllegalArgumentException("only SCMP_ACT_ALLOW entries: " + e);
            }
            for (JsonNode n : e.get("names")) {
                int nr = names.require(n.asText(), "profile");
                JsonNode args = e.get("args");
                if (args == null || args.isEmpty()) {
                    f.add(JEQ_K, 0, 1, nr);
                    f.add(RET_K, 0, 0, RET_ALLOW);
                    continue;
                }
                // JEQ nr; per arg: LD lo, JEQ lo, LD hi, JEQ hi; RET ALLOW; reload nr (every miss lands here)
                int block = 4 * args.size() + 1;
                f.add(JEQ_K, 0, block, nr);
                for (int i = 0; i < args.size(); i++) {
                    JsonNode a = args.get(i);
                    if (!a.path("op").asText().equals("SCMP_CMP_EQ")) {
                        throw new IllegalArgumentException("only SCMP_CMP_EQ: " + a);
                    }
                    int index = a.get("index").asInt();
                    long v = a.get("value").bigIntegerValue().longValue();
                    int left = 4 * (args.size() - i);
                    f.add(LD_W_ABS, 0, 0, 16 + 8 * index);
                    f.add(JEQ_K, 0, left - 1, (int) v);
                    f.add(LD_W_ABS, 0, 0, 16 + 8 * index + 4);
                    f.add(JEQ_K, 0, left - 3, (int) (v >>> 32));
                }
                f.add(RET_K, 0, 0, RET_ALLOW);
                f.add(LD_W_ABS, 0, 0, 0);
            }
        }
        f.add(RET_K, 0, 0, RET_KILL_PROCESS);
        return f.bytes();
    }

    private void add(int code, int jt, int jf, int k) {
        if (jt > 255 || jf > 255) {
            throw new IllegalArgumentException("jump too long");
        }
        insns.add(new int[] {code, jt, jf, k});
    }

    private byte[] bytes() {
        ByteBuffer b = ByteBuffer.allocate(insns.size() * 8).order(ByteOrder.nativeOrder());
        for (int[] i : insns) {
            b.putShort((short) i[0]).put((byte) i[1]).put((byte) i[2]).putInt(i[3]);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(b.array());
        return out.toByteArray();
    }
}
