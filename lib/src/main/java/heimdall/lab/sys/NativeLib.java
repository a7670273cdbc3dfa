package heimdall.lab.sys;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The native half: {@code libheimdall.so} bound by JNA direct mapping, and the path of the
 * {@code heimdall-runner} executable it spawns for each measured run.
 *
 * <p>Both come from the class-path resources {@code heimdall/native/linux-x86-64/}. When those are
 * plain files (running from {@code target/classes}) they are used in place, so a rebuild is seen at
 * once; inside a jar they are extracted once into {@code $XDG_CACHE_HOME/heimdall-lab/native/<hash>/}
 * (default {@code ~/.cache}), keyed by the SHA-256 of both files, so differing builds never share a
 * directory and an unchanged build is not extracted again. Root loads that library and runs that
 * executable, so the directory must be one only root or we can change (it and every folder above it
 * owned by root or us, not writable by others; a sticky folder above it is fine); when it is not (a
 * {@code sudo} that kept the user's {@code HOME}, a shared {@code XDG_CACHE_HOME}), the files go into a
 * private {@link Scratch} folder for this JVM instead.
 *
 * <p>Every method returns a negative errno on failure (see {@link Errno}); the entry points are those
 * of {@code native/include/heimdall.h}, with primitive arguments only, so no call allocates a JNA
 * structure. Handles are owned by {@code heimdall.lab.child.RunningChild}; use that rather than
 * these methods.
 */
public final class NativeLib {
    /** The ABI version {@link #hl_abi_version()} must return for these bindings to be valid. */
    public static final int ABI_VERSION = 4;

    static final String RESOURCE_DIR = "heimdall/native/linux-x86-64/";
    static final String LIBRARY = "libheimdall.so";
    static final String RUNNER = "heimdall-runner";

    private static final Path DIR;

    static {
        DIR = locate();
        Native.register(
                NativeLib.class, NativeLibrary.getInstance(DIR.resolve(LIBRARY).toString()));
        int abi = hl_abi_version();
        if (abi != ABI_VERSION) {
            throw new IllegalStateException(DIR.resolve(LIBRARY) + " has ABI " + abi + ", expected " + ABI_VERSION
                    + " (stale build? run mvn -pl lib package)");
        }
    }

    private NativeLib() {}

    /** Loads the library (idempotent); a no-op after the first call, which binds the methods. */
    public static void load() {
        // the static initializer does the work
    }

    /** The directory holding {@code libheimdall.so} and {@code heimdall-runner}. */
    public static Path directory() {
        return DIR;
    }

    /**
     * A file of the native build ({@code libheimdall.so}, {@code heimdall-runner}, the fixtures and
     * tools), from the same directory; a refusal naming it when the build did not produce it.
     */
    public static synchronized Path file(String name) {
        Path p = DIR.resolve(name);
        URL url = NativeLib.class.getClassLoader().getResource(RESOURCE_DIR + name);
        if (url == null) {
            throw new Refusal("native file " + RESOURCE_DIR + name + " is not on the class path: the native "
                    + "build did not produce it (mvn -pl lib -am package runs make in native/)");
        }
        if ("file".equals(url.getProtocol())) {
            return p; // DIR is the class-path directory itself
        }
        try {
            // From a jar: copy it into the extraction directory beside the library, once per content.
            byte[] bytes = read(url);
            if (!Files.isRegularFile(p) || !Arrays.equals(Files.readAllBytes(p), bytes)) {
                Files.createDirectories(p.getParent());
                Files.deleteIfExists(p);
                place(p, bytes, "rwxr-xr-x");
            }
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract native file " + name, e);
        }
    }

    /** The {@code heimdall-runner} executable. */
    public static Path runner() {
        return DIR.resolve(RUNNER);
    }

    public static native int hl_abi_version();

    /** See heimdall.h: spawn a runner for {@code spec} (header and programs); a handle, or -errno. */
    public static native long hl_run_spawn(String runnerPath, byte[] spec, int specLen);

    /** The runner's listener descriptor, owned by the caller; -ETIMEDOUT, -EPIPE (runner gone), -errno. */
    public static native int hl_run_listener(long handle, int timeoutMs);

    /** Reaps the runner and copies samples and results (indices {@code R_*}); 0 or -errno. */
    public static native int hl_run_wait(long handle, long[] samples, int samplesLen, long[] results, int resultsLen);

    public static native int hl_run_kill(long handle);

    public static native int hl_run_pid(long handle);

    /** The phase the runner has published so far ({@code HL_PHASE_*}). */
    public static native int hl_run_phase(long handle);

    /** 1 while the runner runs, 0 once it has exited (reaped or not). */
    public static native int hl_run_alive(long handle);

    public static native void hl_run_free(long handle);

    public static native int hl_close(int fd);

    /** The Landlock ABI this kernel answers (&gt;= 1), or -errno (EOPNOTSUPP disabled, ENOSYS absent). */
    public static native int hl_landlock_abi_now();

    /** The rights ABI {@code abi} knows as {@code hl_landlock.h} has them: which 0 fs, 1 net, 2 scopes, 3 newest ABI. */
    public static native long hl_landlock_known(int abi, int which);

    /** {@code fcntl(fd, F_GETFD)}: the descriptor flags ({@code FD_CLOEXEC} = 1), or -EBADF. */
    public static native int hl_fd_flags(int fd);

    public static native int hl_pin_self(int cpu);

    /** Lets the calling thread run on the CPUs of {@code cpuSet} (bit c = CPU c); a CPU it runs on, or -errno. */
    public static native int hl_pin_self_set(long cpuSet);

    /**
     * Starts the ping-pong partner thread of a {@code PINGPONG} run on {@code cpu}, or (-1) on {@code cpuSet}; 0 or
     * -errno.
     */
    public static native int hl_pong_start(long handle, int cpu, long cpuSet);

    public static native int hl_current_cpu();

    public static native int hl_allowed_cpus(long[] mask, int words);

    /** Indices into the results array of {@link #hl_run_wait}; must match {@code enum hl_result_index}. */
    public static final int R_HOW = 0;

    public static final int R_CODE = 1;
    public static final int R_CPU = 2;
    public static final int R_PHASE = 3;
    public static final int R_PROG = 4;
    public static final int R_SETUP_ERRNO = 5;
    public static final int R_LAST_RET = 6;
    public static final int R_LAST_ERRNO = 7;
    public static final int R_BATCH_NS = 8;
    public static final int R_DONE = 9;
    /** The Landlock ABI the runner's kernel answered (0: none, or no ruleset asked for). */
    public static final int R_LANDLOCK_ABI = 10;
    /** Where building the ruleset stopped ({@code enum hl_landlock_step}), 0 for none. */
    public static final int R_LANDLOCK_STEP = 11;

    public static final int R_LEN = 12;

    private static Path locate() {
        URL lib = NativeLib.class.getClassLoader().getResource(RESOURCE_DIR + LIBRARY);
        URL runner = NativeLib.class.getClassLoader().getResource(RESOURCE_DIR + RUNNER);
        if (lib == null || runner == null) {
            throw new IllegalStateException("class-path resources " + RESOURCE_DIR + "{" + LIBRARY + "," + RUNNER
                    + "} are missing: build with mvn -pl lib package (make in native/)");
        }
        try {
            if ("file".equals(lib.getProtocol()) && "file".equals(runner.getProtocol())) {
                Path dir = Paths.get(lib.toURI()).getParent();
                if (dir.equals(Paths.get(runner.toURI()).getParent())) {
                    return dir;
                }
            }
            try {
                return extract(lib, runner, cacheRoot());
            } catch (UntrustedDirectory e) {
                Scratch own = Scratch.create("heimdall-lab-native-"); // removed when the JVM ends
                System.err.println(
                        "heimdall-lab: " + e.getMessage() + "; using the private " + own.path() + " instead");
                return extract(lib, runner, own.path());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the native files", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path cacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache =
                xdg != null && !xdg.isEmpty() ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"), ".cache");
        return cache.resolve("heimdall-lab").resolve("native");
    }

    /** Copies both files into {@code root/<hash>/} unless already there; returns that directory. */
    static Path extract(URL lib, URL runner, Path root) throws IOException {
        byte[] libBytes = read(lib);
        byte[] runnerBytes = read(runner);
        String key;
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(libBytes);
            sha.update(runnerBytes);
            key = HexFormat.of().formatHex(sha.digest()).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path dir = root.resolve(key);
        Files.createDirectories(
                dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        String why = untrusted(dir);
        if (why != null) {
            throw new UntrustedDirectory("native cache " + dir + ": " + why);
        }
        place(dir.resolve(LIBRARY), libBytes, "rw-r--r--");
        place(dir.resolve(RUNNER), runnerBytes, "rwxr-xr-x");
        return dir;
    }

    /** The native files' directory cannot be trusted: someone other than root or us could change it. */
    static final class UntrustedDirectory extends IOException {
        UntrustedDirectory(String message) {
            super(message);
        }
    }

    /**
     * Why someone other than root or us could change what {@code dir} holds, or null: {@code dir} itself
     * must be writable by no one else, and every folder on its path (as written and as resolved) owned
     * by root or us and writable by no one else unless sticky.
     */
    static String untrusted(Path dir) throws IOException {
        String why = SafeFiles.othersCanWrite(dir, false);
        if (why != null) {
            return "is " + why;
        }
        for (Path d : List.of(dir.toAbsolutePath(), dir.toRealPath())) {
            for (Path up = d.getParent(); up != null; up = up.getParent()) {
                why = SafeFiles.othersCanWrite(up, true);
                if (why != null) {
                    return up + " above it is " + why;
                }
            }
        }
        return null;
    }

    /**
     * Writes beside the target and renames, so concurrent JVMs never see a half-written file; a target
     * already holding exactly these bytes (a regular file, not a link) is kept.
     */
    private static void place(Path target, byte[] bytes, String perms) throws IOException {
        if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
                && Files.size(target) == bytes.length
                && Arrays.equals(Files.readAllBytes(target), bytes)) {
            return;
        }
        Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
        Files.write(tmp, bytes);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(perms));
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static byte[] read(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return in.readAllBytes();
        }
    }
}
