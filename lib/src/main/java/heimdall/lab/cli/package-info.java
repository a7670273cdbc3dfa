/**
 * The {@code ./lab} dispatcher: {@link heimdall.lab.cli.Main} (the entry point and the list of every
 * command), {@link heimdall.lab.cli.CommandTree} (picocli's tree, help and usage errors),
 * {@link heimdall.lab.cli.ExitStatus} (exceptions to exit statuses), {@link heimdall.lab.cli.CompletionCommand},
 * {@link heimdall.lab.cli.ScriptCommand} (the commands the {@code ./lab} script runs itself),
 * {@link heimdall.lab.cli.Suggestions} and {@link heimdall.lab.cli.BuildInfo}.
 *
 * <p>The command rule: a command lives beside what it commands, in that package ({@code reproduce}'s
 * {@code ReproduceCommand}, {@code vm}'s {@code VmRunCommand}, {@code child}'s {@code ChildRunCommand}, ...),
 * and depends for its shape only on the leaf framework {@code heimdall.lab.command}; {@code cli} assembles the
 * tree, one line per command in {@link heimdall.lab.cli.Main}. Dependencies run {@code cli} → the domains →
 * {@code command}, never back. Only the dispatcher's own commands live here, and {@code bpf}'s group
 * ({@link heimdall.lab.cli.BpfCommands}): it runs {@code bpf}, {@code profile} and the results writer of
 * {@code bench}, which itself uses {@code bpf}, so in {@code bpf} it would close a cycle.
 *
 * <p>Uses: any package (it is the top); none uses it.
 */
package heimdall.lab.cli;
