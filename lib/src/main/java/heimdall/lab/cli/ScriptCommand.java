package heimdall.lab.cli;

import heimdall.lab.BadInput;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A command the {@code ./lab} script runs itself (Maven, Jupyter's kernel, jshell: not this JVM),
 * known here so {@code --help} and completion list it. Reaching this JVM means {@code ./lab} was not
 * the launcher: bad usage, status 2.
 */
record ScriptCommand(String name, String summary, String help, Optional<CommandOptions> options) implements Command {
    static final List<ScriptCommand> ALL = List.of(
            new ScriptCommand(
                    "test", "every test: Maven's suites, then every notebook executed headless", """
                    usage: ./lab test [MAVEN-ARGS...]
                    Runs every test: Maven's suites (the Jupyter kernel's also on JDK 25 where installed),
                    ./lab in a guest of Debian's 6.1 (./lab vm run), every notebook executed headless, then
                    the container job. MAVEN-ARGS go to mvn verify.""", Optional.empty()),
            new ScriptCommand(
                    "kernel install",
                    "register the Jupyter kernel (--user, or --prefix DIR)",
                    """
                    usage: ./lab kernel install [--user | --prefix DIR] [--name NAME]
                    Registers the heimdall-lab Java kernel with Jupyter (built on first use): --user (the
                    default) in the user's Jupyter data folder, --prefix DIR in DIR/share/jupyter/kernels/NAME.
                    NAME defaults to heimdall-lab. ./lab kernel install --help says more.""",
                    Optional.of(CommandOptions.of(Set.of("--user"), Set.of("--prefix", "--name"))
                            .writing("--prefix"))),
            new ScriptCommand("jshell", "a REPL on the library with jshell-startup/lab.jsh", """
                    usage: ./lab jshell [JSHELL-ARGS...]
                    A REPL on the library with jshell-startup/lab.jsh's imports and helpers; Ctrl-C stops a
                    running measurement cooperatively.""", Optional.empty()));

    @Override
    public int run(List<String> args) {
        throw new BadInput("'" + name + "' is run by the ./lab script itself, not by this JVM: run ./lab " + name);
    }
}
