package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** follower-cost at a tiny size: every row measured or refused with a reason, and the folder written. */
class FollowerCostTest {
    @Test
    void everyRowIsMeasuredOrRefusedAndTheFolderIsWritten(@TempDir Path tmp) throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        List<String> lines = new ArrayList<>();
        FollowerCost.Result r = FollowerCost.run(new FollowerCost.Options(1, 50_000, 5_000, Cpus.measuring()),
                ResultsFolder.chosen(tmp.resolve("out")), lines::add);
        assertEquals(10, r.summary().size(), "5 rows a hook, 2 hooks");
        for (Map<String, Object> row : r.summary()) {
            if ("seccomp-fentry".equals(row.get("hook")) && "refused".equals(row.get("status"))) {
                assertTrue(row.get("reason").toString().contains("not attachable"), row.toString());
                continue;
            }
            assertEquals("ok", row.get("status"), row.toString());
            assertTrue((Long) row.get("median_with_ns") > 0 && (Long) row.get("median_without_ns") > 0, row.toString());
        }
        for (String f : List.of("summary.json", "environment.json", "table.md")) {
            assertTrue(Files.size(r.folder().resolve(f)) > 0, f);
        }
    }
}
