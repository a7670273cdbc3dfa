/**
 * Classic BPF for seccomp: the instruction model ({@link heimdall.lab.bpf.Insn},
 * {@link heimdall.lab.bpf.Program}, validated as the kernel validates), the profile
 * {@link heimdall.lab.bpf.Compiler}, the {@link heimdall.lab.bpf.Disassembler}, the
 * {@link heimdall.lab.bpf.Emulator} and {@link heimdall.lab.bpf.Stack} (the kernel's precedence over
 * stacked filters), the action-cache {@link heimdall.lab.bpf.CachePredictor}, and what a return value
 * means to the process ({@link heimdall.lab.bpf.KernelFate}).
 *
 * <p>A differential test against the kernel: {@code Program p = Compiler.compile(profile)}; install
 * {@code p.toBytes()} in a child; for calls and {@link heimdall.lab.bpf.CallCases#argVectors} vectors,
 * compare the child's outcome with {@code KernelFate.of(Emulator.run(p, SeccompData.x86_64(nr, args)))}.
 * The kernel runs {@code uretprobe}/{@code uprobe} without consulting filters
 * ({@link heimdall.lab.bpf.CachePredictor#KERNEL_PASS_THROUGH_X86_64}); leave them out. The project's
 * own differential tests ({@code KernelDifferentialTest}, {@code KernelStackedTest},
 * {@code KernelRandomProgramTest}) install a guard program first, so that no harmful call runs as root
 * whatever the program under test allows, and compare with {@link heimdall.lab.bpf.Stack#evaluate} of
 * the guard and the program together.
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys} and {@code profile}.
 */
package heimdall.lab.bpf;
