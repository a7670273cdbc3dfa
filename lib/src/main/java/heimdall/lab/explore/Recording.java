package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.record.GraphRecordCommand;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * {@link Lab#record}: a command traced, its graph written into a private folder, imported pinned, the folder removed.
 */
final class Recording {
    private Recording() {}

    /** The file name prefix of the recorded pair inside the scratch folder. */
    static final String PROGRAM = "recorded";

    static GraphView record(List<String> command) {
        if (command.isEmpty()
                || command.stream().anyMatch(a -> a == null || a.indexOf('\0') >= 0)
                || command.get(0).isBlank()) {
            throw BadInput.at("record", "command", "no command to run (or an argument with a NUL): " + command);
        }
        try (Scratch scratch = Scratch.create("heimdall-lab-record-")) {
            GraphRecordCommand.Result r = GraphRecordCommand.record(
                    command, scratch.path(), PROGRAM, GraphRecordCommand.DEFAULT_STACK_WORDS, true);
            // Imported from the files just written, pins and all, before the folder goes.
            return new GraphView(
                    GraphFiles.readPinned(r.nodes(), r.edges()), "recorded from " + String.join(" ", command));
        } catch (IOException e) {
            throw new UncheckedIOException("recording " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refusal("recording " + command + " was interrupted", e);
        }
    }
}
