package heimdall.lab.sys;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * {@code renameat2(2)} with {@code RENAME_NOREPLACE}: a rename that fails when anything is at the new
 * name, decided by the kernel in the same step (Java's {@code Files.move} checks first, then renames,
 * and {@code rename(2)} alone would replace an empty directory someone made meanwhile).
 */
public final class Renames {
    private Renames() {}

    private static final int AT_FDCWD = -100;
    private static final int RENAME_NOREPLACE = 1;
    private static final int EEXIST = 17;
    private static final int ENOTEMPTY = 39;

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
            throw new FileSystemException(from.toString(), to.toString(), "renameat2 failed: " + Errno.name(e.getErrorCode()));
        }
    }
}
