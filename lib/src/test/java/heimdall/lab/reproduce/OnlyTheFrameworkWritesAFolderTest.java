package heimdall.lab.reproduce;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import heimdall.lab.bench.ResultsFolder;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 21's "only the framework writing the folder", kept by the build: a reproduction's body returns what
 * it recorded and never writes {@code summary.json}, {@code environment.json} or {@code table.md}, nor puts
 * the folder in place. Those calls on {@link ResultsFolder} come only from the framework ({@link Kept}) and
 * from the commands that are their own framework (graph jmh, a session's save, compare,
 * bpf stats).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OnlyTheFrameworkWritesAFolderTest {
    /** What makes a folder: its three files and putting it in place. */
    private static final Set<String> FRAMEWORK_CALLS =
            Set.of("write", "writeSummary", "writeEnvironment", "writeTable", "publish");

    /** The classes that may make them: the folder itself, the framework, and the commands that are their own. */
    private static final Set<String> FRAMEWORKS = Set.of(
            "heimdall.lab.bench.ResultsFolder",
            "heimdall.lab.reproduce.Kept",
            "heimdall.lab.reproduce.ReproductionResult", // the writer it hands Kept, typed with its kind
            "heimdall.lab.reproduce.graphjmh.GraphJmhCommand",
            "heimdall.lab.explore.SessionFolder",
            "heimdall.lab.analysis.CompareCommand",
            "heimdall.lab.cli.BpfCommands");

    static ArchRule rule() {
        DescribedPredicate<JavaMethodCall> framework =
                new DescribedPredicate<>("a call of ResultsFolder." + FRAMEWORK_CALLS) {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTargetOwner().isEquivalentTo(ResultsFolder.class)
                                && FRAMEWORK_CALLS.contains(call.getName());
                    }
                };
        return noClasses()
                .that(new DescribedPredicate<>("are not the framework") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaClass c) {
                        // nested and anonymous classes of a framework (its lambdas' holders) are the framework
                        String top = c.getName().contains("$")
                                ? c.getName().substring(0, c.getName().indexOf('$'))
                                : c.getName();
                        return !FRAMEWORKS.contains(top);
                    }
                })
                .should()
                .callMethodWhere(framework)
                .because("a reproduction's body returns what it Recorded; the framework (Kept) writes the folder");
    }

    @Test
    void noBodyWritesOrPublishesItsFolder() {
        JavaClasses main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("heimdall.lab");
        assertTrue(main.contain("heimdall.lab.reproduce.floorcost.FloorCost"), "the main classes were read");
        rule().check(main);
    }

    /** A body that published its own folder fails the rule (the check can fail). */
    @Test
    void aBodyPublishingItsFolderFailsTheRule() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedBody.class, ResultsFolder.class);
        AssertionError e = assertThrows(AssertionError.class, () -> rule().check(planted));
        assertTrue(e.getMessage().contains("PlantedBody") && e.getMessage().contains("publish"), e.getMessage());
    }

    /** A body writing as bodies used to. */
    static final class PlantedBody {
        static void run(ResultsFolder folder) {
            folder.publish();
        }
    }
}
