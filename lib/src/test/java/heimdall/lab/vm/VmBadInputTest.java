package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.testing.LabRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./lab vm run}'s bad input: exit 2 and a message naming the field ({@code --kernel}, {@code --modules}, ...)
 * and the reason, before anything is fetched or booted, never a stack trace. Needs no QEMU and no kernel: the
 * kernels here are files shaped like one ({@link FakeKernel}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VmBadInputTest {
    @TempDir
    Path dir;

    /** {@code ./lab ARGS} in this JVM, both streams captured (the project's one test runner for the CLI). */
    static LabRun lab(String... argv) {
        return LabRun.of(argv);
    }

    static void assertBadInput(LabRun o, String... names) {
        assertEquals(2, o.status(), "status; stderr:\n" + o.err());
        for (String n : names) {
            assertTrue(o.err().contains(n), "stderr names '" + n + "':\n" + o.err());
        }
        assertFalse(
                o.err().contains("\tat ")
                        || o.err().contains("Exception")
                        || o.err().contains("internal error"),
                "no stack trace:\n" + o.err());
        assertFalse(o.err().contains("lab vm: debian") || o.err().contains("booted"), "nothing started:\n" + o.err());
    }

    @Test
    void anUnknownKernelNameIsRefusedNamingKernelAndEveryKnownName() {
        LabRun o = lab("vm", "run", "--kernel", "debian:9", "--", "--version");
        assertBadInput(o, "--kernel", "debian:9", "debian:5.10", "debian:6.1", "debian:6.12");
        assertBadInput(lab("vm", "fetch", "--kernel", "ubuntu:24.04"), "--kernel", "ubuntu:24.04", "debian:6.1");
    }

    @Test
    void aMissingKernelIsRefused() {
        assertBadInput(lab("vm", "run", "--", "--version"), "--kernel", "missing", "debian:6.1");
    }

    @Test
    void aBzImageThatIsNotAKernelIsRefusedNamingKernelAndTheMagic() throws Exception {
        Path notKernel = Files.writeString(dir.resolve("bzImage"), "#!/bin/sh\necho I am not a kernel\n");
        Path modules = FakeKernel.modules(dir.resolve("modules"), "6.1.0-57-amd64");
        assertBadInput(
                lab("vm", "run", "--kernel", notKernel.toString(), "--modules", modules.toString(), "--", "--version"),
                "--kernel",
                notKernel.toString(),
                "HdrS",
                "0x202");
        // a big file of zeros, and an ELF vmlinux (not a bzImage), the same
        Path zeros = Files.write(dir.resolve("zeros"), new byte[1 << 20]);
        assertBadInput(
                lab("vm", "run", "--kernel", zeros.toString(), "--modules", modules.toString(), "--", "--version"),
                "--kernel",
                "HdrS");
        Path elf = Files.write(dir.resolve("vmlinux"), FakeKernel.module("vermagic=6.1.0-57-amd64 SMP"));
        assertBadInput(
                lab("vm", "run", "--kernel", elf.toString(), "--modules", modules.toString(), "--", "--version"),
                "--kernel",
                "HdrS");
        assertBadInput(
                lab("vm", "run", "--kernel", dir.resolve("absent").toString(), "--modules", modules.toString()),
                "--kernel",
                "no such file");
    }

    @Test
    void aModulesFolderOfAnotherKernelIsRefusedNamingModulesAndBothReleases() throws Exception {
        Path kernel = FakeKernel.bzImage(dir.resolve("bzImage"), "6.12.57+deb13-amd64");
        Path modules = FakeKernel.modules(dir.resolve("modules"), "6.1.0-57-amd64");
        assertBadInput(
                lab("vm", "run", "--kernel", kernel.toString(), "--modules", modules.toString(), "--", "--version"),
                "--modules",
                modules.toString(),
                "6.1.0-57-amd64",
                "6.12.57+deb13-amd64",
                "does not match");
    }

    @Test
    void aModulesFolderWithoutNinePIsRefusedNamingModules() throws Exception {
        Path kernel = FakeKernel.bzImage(dir.resolve("bzImage"), "6.1.0-57-amd64");
        Path modules = FakeKernel.modules(dir.resolve("modules"), "6.1.0-57-amd64");
        Files.delete(modules.resolve("kernel/fs/9p/9p.ko"));
        assertBadInput(
                lab("vm", "run", "--kernel", kernel.toString(), "--modules", modules.toString(), "--", "--version"),
                "--modules",
                "no module 9p");
        // a module that is not an ELF file at all
        Files.writeString(modules.resolve("kernel/fs/9p/9p.ko"), "not elf");
        assertBadInput(
                lab("vm", "run", "--kernel", kernel.toString(), "--modules", modules.toString()),
                "--modules",
                "9p.ko",
                "not a 64-bit");
        assertBadInput(
                lab(
                        "vm",
                        "run",
                        "--kernel",
                        kernel.toString(),
                        "--modules",
                        dir.resolve("nowhere").toString()),
                "--modules",
                "not a folder");
    }

    @Test
    void aBzImageNeedsModulesAndANamedKernelRefusesThem() throws Exception {
        Path kernel = FakeKernel.bzImage(dir.resolve("bzImage"), "6.1.0-57-amd64");
        assertBadInput(lab("vm", "run", "--kernel", kernel.toString(), "--", "--version"), "--modules", "missing");
        assertBadInput(
                lab("vm", "run", "--kernel", "debian:6.1", "--modules", dir.toString(), "--", "--version"),
                "--modules",
                "only with a bzImage");
    }

    @Test
    void optionsOutOfRangeAreRefusedNamingThem() {
        assertBadInput(lab("vm", "run", "--kernel", "debian:6.1", "--cpus", "0"), "--cpus", "out of range");
        assertBadInput(lab("vm", "run", "--kernel", "debian:6.1", "--cpus", "4294967298"), "--cpus");
        assertBadInput(lab("vm", "run", "--kernel", "debian:6.1", "--memory", "12"), "--memory", "out of range");
        assertBadInput(lab("vm", "run", "--kernel", "debian:6.1", "--timeout", "x"), "--timeout", "not a whole number");
        assertBadInput(
                lab("vm", "run", "--kernel", "debian:6.1", "--accel", "hvf"), "--accel", "hvf", "auto, kvm or tcg");
        assertBadInput(lab("vm", "run", "--kernel", "debian:6.1", "--exec"), "--exec", "no program");
        assertBadInput(lab("vm", "run", "--kernel", "debian:6.1", "--nope"), "--nope");
    }

    @Test
    void theBootHeaderParserReadsTheReleaseAndRefusesAPointerOutsideTheFile() throws Exception {
        BzImage ok = BzImage.read(FakeKernel.bzImage(dir.resolve("k"), "5.10.0-46-amd64"), "--kernel");
        assertEquals("5.10.0-46-amd64", ok.release());
        byte[] head = Files.readAllBytes(dir.resolve("k"));
        head[0x20E] = (byte) 0xff;
        head[0x20F] = (byte) 0xff; // kernel_version + 0x200 beyond the file
        BadInput e = assertThrows(BadInput.class, () -> BzImage.parse(head, "--kernel k"));
        assertTrue(e.getMessage().startsWith("--kernel k: "), e.getMessage());
        byte[] control = Files.readAllBytes(dir.resolve("k"));
        control[0x400] = 0x1b; // an escape where the release starts: never echoed raw
        BadInput c = assertThrows(BadInput.class, () -> BzImage.parse(control, "--kernel k"));
        assertFalse(c.getMessage().contains("\u001b"), c.getMessage());
    }

    @Test
    void modulesComeInDependencyOrderAndBuiltInOnesAreSkipped() throws Exception {
        Path modules = FakeKernel.modules(dir.resolve("modules"), "6.1.0-57-amd64");
        List<String> names = KernelModules.names(KernelModules.load(modules, "6.1.0-57-amd64", "--modules"));
        assertEquals(List.of("virtio_ring", "virtio", "virtio_pci", "9pnet", "9pnet_virtio", "9p"), names);
        // a builtin virtio_pci is not loaded, but what 9pnet_virtio needs still is
        Files.writeString(modules.resolve("modules.builtin"), "kernel/drivers/virtio/virtio_pci.ko\n");
        List<String> fewer =
                new ArrayList<>(KernelModules.names(KernelModules.load(modules, "6.1.0-57-amd64", "--modules")));
        assertEquals(List.of("virtio_ring", "virtio", "9pnet", "9pnet_virtio", "9p"), fewer);
    }

    @Test
    void aDependencyCycleIsRefusedNotLoopedOn() throws Exception {
        Path modules = FakeKernel.modules(dir.resolve("modules"), "6.1.0-57-amd64");
        String vm = "vermagic=6.1.0-57-amd64 SMP";
        Files.write(modules.resolve("kernel/net/9p/9pnet.ko"), FakeKernel.module(vm, "depends=9p"));
        assertBadInput(
                lab(
                        "vm",
                        "run",
                        "--kernel",
                        FakeKernel.bzImage(dir.resolve("k"), "6.1.0-57-amd64").toString(),
                        "--modules",
                        modules.toString()),
                "--modules",
                "cycle");
    }
}
