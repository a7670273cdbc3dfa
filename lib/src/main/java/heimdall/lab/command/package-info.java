/**
 * The command framework, a leaf every command depends on: {@link heimdall.lab.command.Command} (one
 * subcommand of {@code ./lab}: name, help, declared options, run), {@link heimdall.lab.command.CommandOptions}
 * (the options it declares) and {@link heimdall.lab.command.Args} (its arguments parsed against them, values
 * checked as bad input).
 *
 * <p>Uses: {@code heimdall.lab} and {@code sys} (a {@code --cpu} is checked against the CPUs this process
 * may use); never {@code cli} or a command's own package, so a command can live beside what it commands.
 */
package heimdall.lab.command;
