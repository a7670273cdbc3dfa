package heimdall.lab.results;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a row's component that is a part (a record of its own) whose fields stand in the row's
 * {@code summary.json} object itself, each under {@link #prefix} and its own name: the row is built
 * from parts while the file keeps the flat keys every folder has ({@link FlatRows} reads and writes
 * them). A part whose keys are all absent reads as null.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.METHOD, ElementType.PARAMETER, ElementType.FIELD})
public @interface Flat {
    /** Put before each of the part's JSON names ({@code "selftest_"}); none by default. */
    String prefix() default "";

    /**
     * Put into each of the part's JSON names as a word of its own, before a closing {@code _ns}
     * ({@code median_ns} tagged {@code none}: {@code median_none_ns}), else at the end
     * ({@code samples_none}); none by default.
     */
    String tag() default "";

    /**
     * The part's fields (by JSON name, or a part of its own by its component's name) that have no key
     * in this place: always null here, never read or written.
     */
    String[] omit() default {};
}
