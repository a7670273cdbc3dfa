package heimdall.lab.reproduce.workloadcost;

import java.nio.file.Path;
import java.util.List;

/**
 * One program to run whole.
 *
 * @param name its row name ({@code find-tree}; {@code user} for a user's command)
 * @param stresses the side of a sandbox it was chosen to stress, said in the docs and on its rows
 * @param command the command, the program first (looked up on PATH)
 * @param dir its working folder: its inputs, beneath which the broker answer opens them
 */
record Workload(String name, String stresses, List<String> command, Path dir) {
    Workload {
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a workload has a command");
        }
    }

    String commandLine() {
        return String.join(" ", command);
    }
}
