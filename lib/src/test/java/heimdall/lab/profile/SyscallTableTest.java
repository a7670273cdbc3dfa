package heimdall.lab.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.Requires;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SyscallTableTest {
    static final Path HEADER = Path.of("/usr/include/x86_64-linux-gnu/asm/unistd_64.h");

    @Test
    void x86TableKnowsNamesAndNumbersAndItsSource() {
        SyscallTable t = SyscallTable.x86_64();
        assertEquals(0, t.number("read").getAsInt());
        assertEquals(39, t.number("getpid").getAsInt());
        assertEquals(110, t.number("getppid").getAsInt());
        assertEquals(257, t.number("openat").getAsInt());
        assertEquals("openat", t.name(257).orElseThrow());
        assertTrue(t.number("stat64").isEmpty(), "an i386-only name");
        assertTrue(t.source().contains("unistd_64.h") && t.source().contains("linux-libc-dev"), t.source());
        assertTrue(t.numbers().size() > 350);
    }

    @Test
    void checkedInTableIsWhatTheGeneratorMakesFromTheInstalledHeader() throws Exception {
        Requires.file(HEADER, "Debian package linux-libc-dev");
        String generated = SyscallTableGenerator.generate(HEADER);
        String checkedIn;
        try (InputStream in = SyscallTable.class.getResourceAsStream(SyscallTable.X86_64_RESOURCE)) {
            checkedIn = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // The body must match; the first line may name a newer package version, which is worth a note.
        assertEquals(
                checkedIn.substring(checkedIn.indexOf('\n')),
                generated.substring(generated.indexOf('\n')),
                "regenerate with ./lab profile syscall-table --from " + HEADER + " -o lib/src/main/resources"
                        + SyscallTable.X86_64_RESOURCE);
        if (!checkedIn.lines().findFirst().equals(generated.lines().findFirst())) {
            System.err.println("note: syscall table source differs: "
                    + generated.lines().findFirst().orElse(""));
        }
    }
}
