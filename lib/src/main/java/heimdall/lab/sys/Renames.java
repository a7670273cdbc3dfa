package heimdall.lab.sys;

import static heimdall.lab.Errno.EEXIST;
import static heimdall.lab.Errno.EINVAL;
import static heimdall.lab.Errno.ENOTEMPTY;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import heimdall.lab.Errno;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * {@code renameat2(2)} with {@code RENAME_NOREPLACE}: a rename that fails when anything is at the new
 * name, decided by the kernel in the same step (Java's {@code Files.move} checks first, then renames,
 * and {@code rename(2)} alone would replace an empty directory someone made meanwhile).
 */
public final class Renames {
    private Renames() {}

    private static final int AT_FDCWD = -100;
    private static final int RENAME_NOREPLACE = 1;

    static {
        Native.register(Renames.class, NativeLibrary.getInstance("c"));
    }

    private static native int renameat2(int olddirfd, String oldpath, int newdirfd, String newpath, int flags)
            throws LastErrorException;

    /**
     * Renames {@code from} to {@code to} unless {@code to} exists (of any kind, a link or an empty
     * directory included).
     *
     * @return false when {@code to} exists (nothing was renamed)
     */
    public static boolean renameNoReplace(Path from, Path to) throws IOException {
        try {
            renameat2(AT_FDCWD, from.toString(), AT_FDCWD, to.toString(), RENAME_NOREPLACE);
            return true;
        } catch (LastErrorException e) {
            if (e.getErrorCode() == EEXIST || e.getErrorCode() == ENOTEMPTY) {
                return false;
            }
            if (e.getErrorCode() == EINVAL && Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
                return claimThenRename(from, to);
            }
            throw new FileSystemException(
                    from.toString(), to.toString(), "renameat2 failed: " + Errno.name(e.getErrorCode()));
        }
    }

    /**
     * For a file system without {@code RENAME_NOREPLACE} (EINVAL: 9p, which a guest's shared checkout is,
     * and some FUSE file systems): the name is claimed by creating an empty directory there, exclusively
     * (nothing of any kind may be at the name, a link included), then the folder is renamed onto it, which
     * {@code rename(2)} allows onto an empty directory and refuses once it is not empty. Between the two
     * steps only someone who could remove our directory (root; no one else in a sticky or private
     * parent, the only parents {@code --out} accepts) could change what is at the name.
     */
    static boolean claimThenRename(Path from, Path to) throws IOException {
        try {
            Files.createDirectory(
                    to, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            return false;
        }
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException e) {
            Files.deleteIfExists(to);
            throw e;
        }
    }
}
