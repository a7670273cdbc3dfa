package heimdall.lab.vm;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The x86 boot header of a bzImage (Documentation/arch/x86/boot.rst): the {@code "HdrS"} magic at 0x202, the
 * boot protocol version at 0x206, and the kernel's version string, which {@code kernel_version} at 0x20E points to
 * (plus 0x200). Its first word is the kernel's release ({@code 6.1.0-57-amd64}), which its modules must match.
 *
 * @param release the first word of the version string
 * @param version the whole version string
 */
public record BzImage(String release, String version) {
    /** Bytes read from the start: the real-mode setup, where the version string lives, is at most 64 sectors+. */
    private static final int HEAD = 0x10000;

    /** The header of {@code file}; bad input naming {@code field} and the file when it is not a bzImage. */
    public static BzImage read(Path file, String field) {
        if (!Files.isRegularFile(file)) {
            throw new BadInput(
                    field + " " + file + ": " + (Files.exists(file) ? "not a regular file" : "no such file"));
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            head = in.readNBytes(HEAD);
        } catch (IOException e) {
            throw new BadInput(field + " " + file + ": cannot read: " + Io.reason(e), e);
        }
        return parse(head, field + " " + file);
    }

    /** The header in {@code head} (the file's first bytes); {@code where} names it in errors. */
    static BzImage parse(byte[] head, String where) {
        ByteBuffer b = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        if (head.length < 0x210 || b.getInt(0x202) != 0x53726448) { // "HdrS"
            throw new BadInput(where + ": not a Linux kernel: no \"HdrS\" boot header at offset 0x202 (give a bzImage,"
                    + " e.g. arch/x86/boot/bzImage or /boot/vmlinuz-*)");
        }
        int protocol = Short.toUnsignedInt(b.getShort(0x206));
        if (protocol < 0x200) {
            throw new BadInput(
                    where + ": boot protocol " + Integer.toHexString(protocol) + " is older than 2.00: not a bzImage");
        }
        int at = Short.toUnsignedInt(b.getShort(0x20E)) + 0x200;
        int end = at;
        while (end < head.length && head[end] != 0 && end - at < 512) {
            end++;
        }
        if (at >= head.length || end >= head.length || head[end] != 0 || end == at) {
            throw new BadInput(where + ": the boot header's kernel_version (0x20E) points to no version string");
        }
        String version = new String(head, at, end - at, StandardCharsets.US_ASCII);
        String release = version.split(" ", 2)[0];
        if (!version.chars().allMatch(c -> c >= 0x20 && c < 0x7f) || !release.matches("[0-9][A-Za-z0-9._+~-]*")) {
            throw new BadInput(where + ": the kernel's version string is not a kernel release: "
                    + version.replaceAll("[^\\x20-\\x7e]", "?"));
        }
        return new BzImage(release, version);
    }
}
