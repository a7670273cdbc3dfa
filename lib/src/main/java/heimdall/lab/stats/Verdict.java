package heimdall.lab.stats;

/** What a comparison of B against A found, beyond the run-to-run noise and the threshold. */
public enum Verdict {
    /** B's figure is lower than A's: the test rejects "no change" and the change is beyond the threshold. */
    FASTER("faster"),
    /** B's figure is higher than A's, the same way. */
    SLOWER("slower"),
    /** The test does not reject, or the change is within the threshold. */
    NO_DIFFERENCE("no difference beyond noise");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    /** The verdict as printed: {@code faster}, {@code slower}, {@code no difference beyond noise}. */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
