package heimdall.lab.vm;

import heimdall.lab.Io;
import heimdall.lab.Refusal;
import heimdall.lab.bench.Interruption;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One guest from start to power-off: QEMU started (from the calling thread, which must outlive it: QEMU's parent-death
 * signal is tied to it), the boot marker awaited by a deadline, then the command's output copied out of the share as
 * it grows, under an overall deadline and a watchdog, and its exit status read back. Every way it can go wrong ends
 * QEMU and is a {@link Refusal} naming the step; a signal to us (Ctrl-C, SIGTERM) is handed to the guest's command,
 * which gets {@link #STOP_GRACE} to write what it measured before QEMU is killed.
 */
final class GuestRun {
    static final Duration STOP_GRACE = Duration.ofSeconds(30);
    /**
     * How long a guest whose kernel reported a stall (RCU, soft lockup, hung task) may stay silent before it is
     * killed, however long {@code --watchdog} is: such a guest rarely recovers, and the watchdog alone would wait
     * its full length.
     */
    static final Duration STALL_GRACE = Duration.ofSeconds(120);

    private static final long POLL_MS = 100;
    /** The kernel's words for a guest that has stopped moving. */
    private static final Pattern STALL =
            Pattern.compile("detected stalls?|self-detected stall|soft lockup|blocked for more than|Kernel panic");
    /** Console lines kept for messages. */
    private static final int KEEP_LINES = 12;

    /** A signal came before the guest's command started: QEMU was killed, there is nothing to hand on. */
    static final class StoppedEarly extends RuntimeException {
        StoppedEarly() {
            super("stopped before the guest's command started", null, false, false);
        }
    }

    /** Why a boot did not get as far as the command. */
    static final class NotBooted extends RuntimeException {
        NotBooted(String why) {
            super(why, null, false, false);
        }
    }

    private final List<String> argv;
    private final Duration stallGrace;
    private final Path share;
    private final PrintStream out;
    private final PrintStream err;
    private final Deque<String> kernelLines = new ArrayDeque<>();
    private final LastLine lastOut = new LastLine();
    private final BlockingQueue<String> markers = new LinkedBlockingQueue<>();
    private final StringBuilder qemuErr = new StringBuilder();
    private volatile long lastProgress = System.nanoTime();
    private volatile boolean poweringOff;
    /** When the kernel last began reporting a stall with no progress since (0: none), and its line. */
    private volatile long stallSince;

    private volatile String stallLine;
    private Process qemu;
    /** The console and stderr readers of {@link #qemu}, once started. */
    private volatile List<Thread> readers = List.of();

    GuestRun(List<String> argv, Path share, PrintStream out, PrintStream err) {
        this(argv, share, out, err, STALL_GRACE);
    }

    /** As above, with the grace after a kernel's stall report given (tests shorten it). */
    GuestRun(List<String> argv, Path share, PrintStream out, PrintStream err, Duration stallGrace) {
        this.stallGrace = stallGrace;
        this.argv = List.copyOf(argv);
        this.share = share;
        this.out = out;
        this.err = err;
    }

    /**
     * Starts QEMU and waits for the guest's boot marker for at most {@code bootDeadline}; throws {@link NotBooted}
     * (QEMU ended) when it does not come.
     */
    void boot(Duration bootDeadline, Interruption interruption) {
        try {
            qemu = new ProcessBuilder(argv).start();
        } catch (IOException e) {
            throw new Refusal("starting the guest: cannot run " + QemuCommand.QEMU + ": " + Io.reason(e));
        }
        Thread console = new Thread(() -> readConsole(qemu.getInputStream()), "vm-console");
        Thread qerr = new Thread(() -> readQemuErr(qemu.getErrorStream()), "vm-qemu-stderr");
        console.setDaemon(true);
        qerr.setDaemon(true);
        readers = List.of(console, qerr);
        console.start();
        qerr.start();
        String first = awaitMarker(bootDeadline, interruption);
        if (first == null || !first.equals(InitScript.BOOTED)) {
            kill();
            drained();
            throw new NotBooted(
                    first == null
                            ? "no boot marker within " + bootDeadline.toSeconds() + " s"
                            : "QEMU ended before the guest booted" + qemuSaid());
        }
    }

    /**
     * After {@link #boot}: waits for the guest's setup ({@code setupDeadline}), then copies the command's output until
     * the guest powers off, and returns the command's exit status.
     */
    int finish(Duration setupDeadline, Duration timeout, Duration watchdog, Interruption interruption) {
        long start = System.nanoTime();
        String m = awaitMarker(setupDeadline, interruption);
        if (m == null || !m.equals(InitScript.RUNNING)) {
            kill();
            if (m != null && m.startsWith(InitScript.FAILED)) {
                throw new Refusal("guest setup: " + m.substring(InitScript.FAILED.length()) + " failed" + kernelSaid());
            }
            throw new Refusal(
                    "guest setup: not done within " + setupDeadline.toSeconds() + " s of boot" + kernelSaid());
        }
        lastProgress = System.nanoTime();
        try (Tail stdout = new Tail(share.resolve("stdout"), out, lastOut);
                Tail stderr = new Tail(share.resolve("stderr"), err, new LastLine())) {
            long stopAsked = 0;
            while (true) {
                boolean ended = qemu.waitFor(POLL_MS, TimeUnit.MILLISECONDS);
                stdout.copy();
                stderr.copy();
                if (stdout.grew() || stderr.grew()) {
                    lastProgress = System.nanoTime();
                    stallSince = 0;
                }
                if (ended) {
                    break;
                }
                long now = System.nanoTime();
                if (interruption.requested() && stopAsked == 0) {
                    String sig = interruption
                                    .cause()
                                    .filter(c -> c == Interruption.Cause.SIGINT)
                                    .isPresent()
                            ? "INT"
                            : "TERM";
                    err.println("lab vm: " + interruption.cause().get().said() + ": passing SIG" + sig
                            + " to the guest's command; QEMU is killed in " + STOP_GRACE.toSeconds()
                            + " s if it has not ended");
                    var console = qemu.getOutputStream();
                    console.write((InitScript.STOP + " " + sig + "\n").getBytes(StandardCharsets.US_ASCII));
                    console.flush();
                    stopAsked = now;
                } else if (stopAsked != 0 && now - stopAsked > STOP_GRACE.toNanos()) {
                    kill();
                    throw new Refusal("stopping the guest: its command did not end within " + STOP_GRACE.toSeconds()
                            + " s of the stop; QEMU killed");
                } else if (stopAsked == 0 && now - start > timeout.toNanos()) {
                    kill();
                    throw new Refusal("running the guest: not finished within --timeout " + timeout.toSeconds()
                            + " s; QEMU killed"
                            + kernelSaid());
                } else if (stopAsked == 0 && now - lastProgress > watchdog.toNanos()) {
                    kill();
                    throw new Refusal("guest stalled: no output from its command or its /init for "
                            + watchdog.toSeconds()
                            + " s (--watchdog); QEMU killed" + kernelSaid());
                } else if (stopAsked == 0 && stallSince != 0 && now - stallSince > stallGrace.toNanos()) {
                    kill();
                    throw new Refusal("guest stalled: its kernel reported a stall (" + stallLine
                            + ") and its command printed"
                            + " nothing in the " + stallGrace.toSeconds() + " s since; QEMU killed" + kernelSaid());
                }
            }
            stdout.copy();
            stderr.copy();
        } catch (IOException e) {
            kill();
            throw new UncheckedIOException("cannot read the guest's output in " + share, e);
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
            throw new Refusal("running the guest: interrupted; QEMU killed");
        }
        Optional<Integer> status = status(share);
        if (status.isEmpty()) {
            drained(); // its console's last words, before they are said
            throw new Refusal("running the guest: it powered off without its command's exit status (QEMU status "
                    + qemu.exitValue() + ")" + kernelSaid() + qemuSaid());
        }
        return status.get();
    }

    /**
     * Once QEMU has ended: waits, a bounded time, for the console and stderr readers to reach the end of what it
     * wrote, so that a message gives the console's last lines. Bounded, since a process QEMU left behind could hold
     * the pipes open.
     */
    private void drained() {
        for (Thread t : readers) {
            try {
                t.join(DRAIN.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** How long {@link #drained} waits for each reader. */
    private static final Duration DRAIN = Duration.ofSeconds(2);

    /** Ends QEMU now (SIGKILL) and waits for it; safe to call at any time, from any thread. */
    void kill() {
        Process p = qemu;
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The last line the guest's command printed on stdout (after {@link #finish}); empty when it printed none. */
    Optional<String> lastLine() {
        return lastOut.line();
    }

    /** QEMU's process, while it runs (for tests and the shutdown hook). */
    Optional<ProcessHandle> process() {
        Process p = qemu;
        return p == null ? Optional.empty() : Optional.of(p.toHandle());
    }

    /** The next marker line, or null when none comes by {@code deadline} or QEMU ended. */
    private String awaitMarker(Duration deadline, Interruption interruption) {
        long end = System.nanoTime() + deadline.toNanos();
        try {
            while (System.nanoTime() < end) {
                String m = markers.poll(POLL_MS, TimeUnit.MILLISECONDS);
                if (m != null) {
                    return m; // a marker that came is taken first: a stop after "running" goes to the command
                }
                if (interruption.requested()) {
                    kill();
                    throw new StoppedEarly();
                }
                if (!qemu.isAlive()) {
                    m = markers.poll(500, TimeUnit.MILLISECONDS);
                    return m != null ? m : "";
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    /** The status file the guest's /init wrote: one number 0..255, read from a regular file (no link followed). */
    static Optional<Integer> status(Path share) {
        Path f = share.resolve("status");
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer b = ByteBuffer.allocate(16);
            ch.read(b);
            String s = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).strip();
            if (s.matches("[0-9]{1,3}") && Integer.parseInt(s) <= 255) {
                return Optional.of(Integer.parseInt(s));
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * QEMU's stdout is the guest's console: /init's marker lines go to {@link #markers}, anything else (the kernel's
     * messages, which {@code quiet} keeps to warnings) is said on our stderr and kept for messages. Kernel lines
     * ({@code [   1.234] ...}) are not progress: an RCU stall prints them while nothing moves.
     */
    private void readConsole(InputStream in) {
        StringBuilder line = new StringBuilder();
        try (in) {
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                for (int i = 0; i < n; i++) {
                    char c = (char) (buf[i] & 0xff);
                    if (c == '\n') {
                        consoleLine(line.toString());
                        line.setLength(0);
                    } else if (c != '\r' && line.length() < 4096) {
                        line.append(c >= 0x20 && c < 0x7f || c == '\t' ? c : '?');
                    }
                }
            }
        } catch (IOException e) {
            // QEMU ended
        }
        if (!line.isEmpty()) {
            consoleLine(line.toString());
        }
    }

    private void consoleLine(String line) {
        if (line.startsWith("heimdall-vm: ")) {
            markers.add(line);
            lastProgress = System.nanoTime();
            poweringOff |= line.startsWith(InitScript.EXIT);
            return;
        }
        if (line.isBlank() || poweringOff) {
            return; // after the exit marker only the kernel's "reboot: Power down" comes
        }
        if (stallSince == 0 && STALL.matcher(line).find()) {
            stallLine = line.replaceFirst("^\\[[ 0-9.]+\\] *", "");
            stallSince = System.nanoTime();
        }
        synchronized (kernelLines) {
            kernelLines.addLast(line);
            if (kernelLines.size() > KEEP_LINES) {
                kernelLines.removeFirst();
            }
        }
        err.println("vm console: " + line);
    }

    private void readQemuErr(InputStream in) {
        try (in) {
            byte[] b = in.readNBytes(1 << 16);
            synchronized (qemuErr) {
                qemuErr.append(new String(b, StandardCharsets.UTF_8));
            }
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // QEMU ended
        }
    }

    private String kernelSaid() {
        synchronized (kernelLines) {
            return kernelLines.isEmpty() ? "" : "; the guest's console last said: " + String.join(" / ", kernelLines);
        }
    }

    private String qemuSaid() {
        synchronized (qemuErr) {
            String s = qemuErr.toString().strip();
            return s.isEmpty()
                    ? ""
                    : "; QEMU said: " + String.join(" / ", s.lines().limit(6).toList());
        }
    }

    /** QEMU's stderr so far (warnings about the host's KVM, for instance). */
    String qemuStderr() {
        synchronized (qemuErr) {
            return qemuErr.toString();
        }
    }

    /**
     * A file the guest writes into the share, copied to one of our streams as it grows. We made it empty before the
     * boot and read it through our own descriptor, so a name the guest swaps in later is never opened.
     */
    private static final class Tail implements AutoCloseable {
        private final FileChannel ch;
        private final PrintStream to;
        private final ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        private long at;
        private boolean grew;

        private final LastLine last;

        Tail(Path file, PrintStream to, LastLine last) throws IOException {
            this.ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            this.to = to;
            this.last = last;
        }

        void copy() throws IOException {
            grew = false;
            while (true) {
                buf.clear();
                int n = ch.read(buf, at);
                if (n <= 0) {
                    break;
                }
                at += n;
                grew = true;
                to.write(buf.array(), 0, n);
                last.add(buf.array(), n);
            }
            if (grew) {
                to.flush();
            }
        }

        boolean grew() {
            return grew;
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }

    /** The last line of what a {@link Tail} copied (at most {@link #MAX} bytes of it), a final newline aside. */
    static final class LastLine {
        static final int MAX = 4096;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private boolean ended;

        synchronized void add(byte[] bytes, int n) {
            for (int i = 0; i < n; i++) {
                if (ended) {
                    kept.reset(); // the line after a newline starts
                    ended = false;
                }
                if (bytes[i] == '\n') {
                    ended = true;
                } else if (kept.size() < MAX) {
                    kept.write(bytes[i]);
                }
            }
        }

        synchronized Optional<String> line() {
            String l = kept.toString(StandardCharsets.UTF_8).strip();
            return l.isEmpty() ? Optional.empty() : Optional.of(l);
        }
    }
}
