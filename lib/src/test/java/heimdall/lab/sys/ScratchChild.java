package heimdall.lab.sys;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * A JVM that makes a scratch folder with a file in it, prints the folder's path and then waits to be
 * stopped (SIGTERM, SIGINT): the shutdown hook, not the owner, must remove the folder.
 */
public final class ScratchChild {
    private ScratchChild() {}

    public static void main(String[] args) throws Exception {
        Scratch s = Scratch.create("heimdall-scratch-child-");
        SafeFiles.writeNew(s.newDirectory("in").resolve("data.txt"), "x".getBytes(StandardCharsets.UTF_8));
        System.out.println(s.path());
        System.out.flush();
        Thread.sleep(60_000);
        System.exit(Files.exists(s.path()) ? 3 : 4);
    }
}
