package heimdall.lab.sys;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;

/**
 * A JVM that makes a scratch folder with a file in it, prints the folder's path and then waits to be
 * stopped (SIGTERM, SIGINT): the shutdown hook, not the owner, must remove the folder. With the
 * argument {@code grace}, the folder has a grace period and the JVM a graceful stop of its own (as
 * floor-cost's): that stop still writes into the folder after the signal, prints {@code late ok},
 * and closes it.
 */
public final class ScratchChild {
    private ScratchChild() {}

    public static void main(String[] args) throws Exception {
        boolean grace = args.length > 0 && args[0].equals("grace");
        Scratch s = Scratch.create("heimdall-scratch-child-", grace ? Duration.ofSeconds(20) : Duration.ZERO);
        SafeFiles.writeNew(s.newDirectory("in").resolve("data.txt"), "x".getBytes(StandardCharsets.UTF_8));
        if (grace) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(500); // the reaper runs meanwhile and must wait for us
                    SafeFiles.writeNew(s.path().resolve("late.txt"), "y".getBytes(StandardCharsets.UTF_8));
                    System.out.println("late ok");
                } catch (Exception e) {
                    System.out.println("late failed: " + e);
                } finally {
                    System.out.flush();
                    s.close();
                }
            }));
        }
        System.out.println(s.path());
        System.out.flush();
        Thread.sleep(60_000);
        System.exit(Files.exists(s.path()) ? 3 : 4);
    }
}
