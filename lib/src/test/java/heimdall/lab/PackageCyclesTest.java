package heimdall.lab;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import heimdall.lab.packagecycle.left.Left;
import heimdall.lab.packagecycle.right.Right;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The package rule of every {@code package-info.java}, kept by the build: no dependency cycle between the
 * packages of {@code heimdall.lab}, except inside the two groups that are one concern each, {@code bench} with
 * {@code broker} (the floor bench drives a supervisor, a supervisor's run reports through the bench's statistics)
 * and {@code graph} with {@code graph.machine} and {@code graph.prepared} (one graph, compiled and laid out). A
 * group counts as one package: a cycle through a group and any other package still fails. The check reads the
 * compiled main classes (what jdeps reads), not the tests.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PackageCyclesTest {
    /** Packages that are one concern: each maps to its group's name; every other package is its own slice. */
    private static final Map<String, String> GROUPS = Map.of(
            "heimdall.lab.bench", "{bench, broker}",
            "heimdall.lab.broker", "{bench, broker}",
            "heimdall.lab.graph", "{graph, graph.machine, graph.prepared}",
            "heimdall.lab.graph.machine", "{graph, graph.machine, graph.prepared}",
            "heimdall.lab.graph.prepared", "{graph, graph.machine, graph.prepared}");

    /** The slice a package belongs to: its group, or itself; empty outside {@code heimdall.lab}. */
    static String sliceOf(String packageName) {
        if (!packageName.equals("heimdall.lab") && !packageName.startsWith("heimdall.lab.")) {
            return "";
        }
        return GROUPS.getOrDefault(packageName, packageName);
    }

    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String slice = sliceOf(c.getPackageName());
            return slice.isEmpty() ? SliceIdentifier.ignore() : SliceIdentifier.of(slice);
        }

        @Override
        public String getDescription() {
            return "the packages of heimdall.lab, {bench, broker} and {graph, graph.machine, graph.prepared} "
                    + "one slice each";
        }
    };

    /** The rule: the slices above are free of cycles. */
    static ArchRule rule() {
        return slices().assignedFrom(PACKAGES).should().beFreeOfCycles();
    }

    @Test
    void noPackageCycleBeyondTheTwoGroupsThatAreOneConcern() throws URISyntaxException {
        JavaClasses main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("heimdall.lab");
        Set<String> packages = main.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        // A check that found nothing would pass; the main classes are here, and none of the tests.
        assertTrue(packages.size() >= 20 && packages.contains("heimdall.lab.cli"), "main packages read: " + packages);
        assertTrue(packages.stream().noneMatch(p -> p.startsWith("heimdall.lab.packagecycle")), "tests read too");
        rule().check(main);
        // Each package says what it owns and what it may use; a new package without a package-info fails here.
        Path sources = lib().resolve("src/main/java");
        for (String p : packages) {
            Path info = sources.resolve(p.replace('.', '/')).resolve("package-info.java");
            assertTrue(Files.isRegularFile(info), p + " has no package-info.java saying what it owns and uses");
        }
    }

    /** The lib module's folder: this test's classes are in {@code lib/target/test-classes}. */
    private static Path lib() throws URISyntaxException {
        return Path.of(PackageCyclesTest.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .getParent()
                .getParent();
    }

    @Test
    void aPlantedCycleBetweenTwoPackagesFailsTheRule() {
        JavaClasses planted = new ClassFileImporter().importClasses(Left.class, Right.class);
        AssertionError e = assertThrows(AssertionError.class, () -> rule().check(planted));
        assertTrue(
                e.getMessage().contains("Cycle detected")
                        && e.getMessage().contains("packagecycle.left")
                        && e.getMessage().contains("packagecycle.right"),
                e.getMessage());
    }

    @Test
    void onlyTheTwoGroupsShareASlice() {
        assertEquals(sliceOf("heimdall.lab.bench"), sliceOf("heimdall.lab.broker"));
        assertEquals(sliceOf("heimdall.lab.graph"), sliceOf("heimdall.lab.graph.machine"));
        assertEquals(sliceOf("heimdall.lab.graph"), sliceOf("heimdall.lab.graph.prepared"));
        assertNotEquals(sliceOf("heimdall.lab.graph"), sliceOf("heimdall.lab.graph.record"));
        assertNotEquals(sliceOf("heimdall.lab.bench"), sliceOf("heimdall.lab.results"));
        assertNotEquals(sliceOf("heimdall.lab.bench"), sliceOf("heimdall.lab.graph"));
        assertEquals("heimdall.lab", sliceOf("heimdall.lab"));
        assertEquals("", sliceOf("heimdall.labs"));
        assertEquals("", sliceOf("java.util"));
    }
}
