package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelInstallTest {
    @Test
    void userFolderFollowsJupyterCore() {
        assertEquals(Path.of("/d"), KernelInstall.userDataDir(Map.of("JUPYTER_DATA_DIR", "/d")));
        assertEquals(Path.of("/x/jupyter"), KernelInstall.userDataDir(Map.of("XDG_DATA_HOME", "/x", "HOME", "/h")));
        assertEquals(Path.of("/h/.local/share/jupyter"), KernelInstall.userDataDir(Map.of("HOME", "/h")));
    }

    @Test
    void installCopiesTheClassPathBesideKernelJson(@TempDir Path tmp) throws Exception {
        Path jar = Files.writeString(tmp.resolve("a.jar"), "not really a jar");
        Path classes = Files.createDirectories(tmp.resolve("classes/x"));
        Files.writeString(classes.resolve("C.class"), "bytes");
        Path dir = Files.createDirectories(KernelInstall.specDir(tmp.resolve("prefix"), "k"));
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(dir.resolve("lib/stale.jar"), "from an earlier install");

        KernelInstall.install(dir, List.of(jar, tmp.resolve("classes"), tmp.resolve("missing.jar")));

        assertTrue(Files.exists(dir.resolve("lib/a.jar")));
        assertTrue(Files.exists(dir.resolve("lib/classes-0/x/C.class")));
        assertTrue(!Files.exists(dir.resolve("lib/stale.jar")), "an earlier install's jars are replaced");
        JsonNode spec = new ObjectMapper().readTree(dir.resolve("kernel.json").toFile());
        List<String> argv = new ObjectMapper().convertValue(spec.get("argv"), List.class);
        String cp = argv.get(argv.indexOf("-cp") + 1);
        assertEquals(dir.resolve("lib/a.jar") + ":" + dir.resolve("lib/classes-0"), cp);
        assertEquals(LabKernel.class.getName(), argv.get(argv.size() - 2));
        assertEquals("{connection_file}", argv.get(argv.size() - 1));
        assertTrue(Files.isExecutable(Path.of(argv.get(0))), argv.get(0));
        assertEquals("Java (heimdall-lab)", spec.get("display_name").asText());
        assertEquals("java", spec.get("language").asText());
    }
}
