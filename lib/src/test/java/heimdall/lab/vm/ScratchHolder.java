package heimdall.lab.vm;

import heimdall.lab.sys.Scratch;

/**
 * A stand-in for a live {@code ./lab vm run} in another process: it makes a vm scratch folder as the run does
 * ({@link Scratch} with {@link StaleScratch#PREFIX}, under {@code java.io.tmpdir}), prints its path, and holds it
 * until its stdin closes.
 */
public final class ScratchHolder {
    private ScratchHolder() {}

    public static void main(String[] args) throws Exception {
        try (Scratch s = Scratch.create(StaleScratch.PREFIX)) {
            System.out.println(s.path());
            System.out.flush();
            while (System.in.read() >= 0) {
                // held until stdin closes (or the process is killed)
            }
        }
    }
}
