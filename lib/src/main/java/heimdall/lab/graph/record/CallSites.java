package heimdall.lab.graph.record;

import heimdall.lab.probe.TraceEvent;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Attributes a traced syscall to its call site: the place in the program's own code that led to it,
 * rather than the libc wrapper that executed the {@code syscall} instruction.
 *
 * <p>Rule. The system objects are the C library, the dynamic loader and the vDSO (by file name:
 * {@code libc.so*}, {@code libpthread*}, {@code ld-linux*}, {@code [vdso]}). If the syscall
 * instruction itself ({@code ip}) lies outside them, the call site is {@code ip} (an inline
 * {@code syscall} in the program). Otherwise the recorded stack words at {@code sp} are scanned in
 * order for the first word that (a) points into an executable mapping of a non-system object and
 * (b) is plausibly a return address: the bytes just before it in the object's file decode as a
 * {@code call} (E8 rel32, or FF /2 of 2, 3, 6 or 7 bytes), and it is not the object's ELF entry point
 * (the initial stack's auxiliary vector holds that, {@code AT_ENTRY}, during the loader's startup
 * calls). That word is the return address into the
 * caller: for a leaf wrapper such as {@code syscall(2)} it is the first word; for deeper libc paths
 * (stdio, pthread_create) it is the first program frame's return address found in the window.
 * When none is found (the loader's startup, libc's thread exit, a window too short), the call
 * site is {@code ip} in the system object. Addresses are kept as (object file name, file offset), so
 * they survive ASLR and are the same across runs of the same binaries.
 *
 * <p>This is a heuristic over a bounded stack window, not an unwinder: a stale code pointer in an
 * uninitialised slot that happens to follow a call instruction can be taken for a return address.
 * Sites remain (syscall, call site) pairs either way, so the worst case splits or merges sites, never
 * invents a syscall.
 */
public final class CallSites {
    /** A code address as (object path, file offset). */
    public record Location(String object, long offset) {
        /** {@code name+0xoffset} with the object's file name only. */
        public String label() {
            return Path.of(object).getFileName() + "+0x" + Long.toHexString(offset);
        }
    }

    private final List<TraceEvent.Mapping> maps;
    private final Map<String, byte[]> files = new HashMap<>();

    /** Call sites within one process's executable mappings (its last {@code maps} event). */
    public CallSites(TraceEvent.Maps maps) {
        this.maps = maps.maps();
    }

    /** Whether {@code path} is the C library, the loader or the vDSO. */
    public static boolean system(String path) {
        String name = path.isEmpty() ? "" : Path.of(path).getFileName().toString();
        return name.startsWith("libc.so")
                || name.startsWith("libc-")
                || name.startsWith("libpthread")
                || name.startsWith("ld-linux")
                || name.startsWith("ld-")
                || path.startsWith("[");
    }

    /** The location of an address, if a mapping holds it. */
    public Optional<Location> locate(long address) {
        for (TraceEvent.Mapping m : maps) {
            if (m.contains(address)) {
                return Optional.of(new Location(m.path(), address - m.start() + m.offset()));
            }
        }
        return Optional.empty();
    }

    /** The call site of one syscall, by the rule of the class comment; empty when {@code ip} is unmapped. */
    public Optional<Location> of(TraceEvent.Syscall call) {
        Optional<Location> ip = locate(call.ip());
        if (ip.isPresent() && !system(ip.get().object())) {
            return ip;
        }
        for (long word : call.stack()) {
            Optional<Location> l = locate(word);
            if (l.isPresent() && !system(l.get().object()) && followsCall(l.get())) {
                return l;
            }
        }
        return ip;
    }

    /** Whether the bytes before {@code l} in its file end with a call instruction. */
    boolean followsCall(Location l) {
        byte[] b = bytes(l.object());
        int at = (int) Math.min(Integer.MAX_VALUE, l.offset());
        if (b == null || at < 7 || at > b.length) {
            return false;
        }
        if (at == entryPoint(b)) {
            return false; // the initial stack's auxv holds AT_ENTRY, which is no return address
        }
        if ((b[at - 5] & 0xFF) == 0xE8) {
            return true; // call rel32
        }
        for (int len : new int[] {2, 3, 6, 7}) {
            int op = at - len;
            // FF /2: the ModRM's reg field is 2; a REX prefix (41) may precede it for len 3.
            if ((b[op] & 0xFF) == 0xFF && ((b[op + 1] >> 3) & 7) == 2) {
                return true;
            }
        }
        return false;
    }

    /** The ELF header's e_entry (a file offset under equal offsets and addresses), or -1. */
    static long entryPoint(byte[] b) {
        if (b.length < 0x20 || b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F' || b[4] != 2) {
            return -1;
        }
        return ByteBuffer.wrap(b, 0x18, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private byte[] bytes(String object) {
        return files.computeIfAbsent(object, p -> {
            if (p.isEmpty() || p.startsWith("[")) {
                return null;
            }
            try (RandomAccessFile f = new RandomAccessFile(p, "r")) {
                if (f.length() > (256L << 20)) {
                    return null;
                }
                byte[] all = new byte[(int) f.length()];
                f.readFully(all);
                return all;
            } catch (IOException e) {
                return null;
            }
        });
    }
}
