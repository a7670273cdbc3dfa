package heimdall.lab.floor;

import heimdall.lab.bpf.CachePredictor;
import heimdall.lab.bpf.Emulator;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.bpf.Stack;
import heimdall.lab.bpf.Verdict;
import java.util.List;

/**
 * A floor as a child installs it: its programs in installation order (oldest first) and which one,
 * if any, hands out the user-notification listener (a floor with brokered calls); -1 for none.
 *
 * <p>The kernel runs every installed program for a call that is not answered from its action cache
 * and keeps the most restrictive answer; {@link #verdict} and {@link #insns} model exactly that.
 */
public record Floor(String name, List<Program> programs, int listenerProgram) {
    public Floor {
        programs = List.copyOf(programs);
        if (listenerProgram < -1 || listenerProgram >= programs.size()) {
            throw new IllegalArgumentException(
                    "listenerProgram " + listenerProgram + " is not one of " + programs.size() + " programs");
        }
    }

    /** Whether a program of this floor notifies a supervisor (and so hands out a listener). */
    public boolean brokered() {
        return listenerProgram >= 0;
    }

    /** The programs as raw {@code struct sock_filter} bytes, in installation order. */
    public List<byte[]> bytes() {
        return programs.stream().map(Program::toBytes).toList();
    }

    /** The stacked answer for one call, as the kernel's precedence gives it. */
    public Verdict verdict(SeccompData call) {
        return Stack.evaluate(programs, call);
    }

    /** Instructions executed for one call, summed over every program (each runs in full). */
    public long insns(SeccompData call) {
        long total = 0;
        for (Program p : programs) {
            total += Emulator.run(p, call).insnsExecuted();
        }
        return total;
    }

    /** Whether the kernel answers {@code nr} from its action cache without running any program. */
    public boolean cacheable(int nr) {
        return CachePredictor.cacheable(programs, nr);
    }
}
