package heimdall.lab.bpf;

import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Figures of a program over every syscall number of a table, each emulated on x86_64 with zero
 * arguments: instructions executed for the numbers it allows and for those it denies, and how many
 * numbers the kernel's action cache would answer.
 *
 * @param length the program's instruction count
 * @param allowed instructions executed over the allowed numbers
 * @param denied instructions executed over the denied numbers (any answer but ALLOW)
 * @param cacheable how many of the table's numbers are predicted cacheable
 * @param numbers how many numbers the table has
 */
public record ProgramStats(int length, Summary allowed, Summary denied, int cacheable, int numbers) {
    /** Min, median (mean of the two middle values for an even count) and max; zeros when empty. */
    public record Summary(int count, long min, double median, long max) {
        static Summary of(List<Long> values) {
            if (values.isEmpty()) {
                return new Summary(0, 0, 0, 0);
            }
            List<Long> v = new ArrayList<>(values);
            Collections.sort(v);
            int n = v.size();
            double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2.0;
            return new Summary(n, v.get(0), median, v.get(n - 1));
        }
    }

    public static ProgramStats of(Program program, SyscallTable table) {
        List<Long> allowed = new ArrayList<>();
        List<Long> denied = new ArrayList<>();
        int cacheable = 0;
        for (int nr : table.numbers()) {
            Verdict v = Emulator.run(program, SeccompData.x86_64(nr));
            (v.allows() ? allowed : denied).add(v.insnsExecuted());
            if (CachePredictor.cacheable(program, nr)) {
                cacheable++;
            }
        }
        return new ProgramStats(
                program.length(),
                Summary.of(allowed),
                Summary.of(denied),
                cacheable,
                table.numbers().size());
    }
}
