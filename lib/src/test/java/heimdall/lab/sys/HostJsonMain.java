package heimdall.lab.sys;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Prints {@link Host#capture()} as environment.json records it: run in a child JVM by {@link SeccompedHostTest}. */
public final class HostJsonMain {
    private HostJsonMain() {}

    public static void main(String[] args) throws Exception {
        System.out.println(new ObjectMapper().writeValueAsString(HostFacts.of(Host.capture())));
    }
}
