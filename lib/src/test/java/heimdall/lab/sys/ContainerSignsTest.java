package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContainerSignsTest {
    static final List<String> V2_DOCKER =
            List.of("0::/system.slice/docker-3f1c2a9e8b7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170.scope");
    static final List<String> V2_NAMESPACED = List.of("0::/");
    static final List<String> V1_KUBE = List.of(
            "12:pids:/kubepods/burstable/pod1234/abcd",
            "11:cpu,cpuacct:/kubepods/burstable/pod1234/abcd",
            "1:name=systemd:/kubepods/burstable/pod1234/abcd");
    static final List<String> HYBRID_PODMAN = List.of(
            "9:name=systemd:/",
            "4:memory:/machine.slice/libpod-0123abcd.scope",
            "0::/machine.slice/libpod-0123abcd.scope/container");

    @Test
    void findsTheV2PathOnlyOnTheUnifiedLine() {
        assertEquals(V2_DOCKER.get(0).substring(3), ContainerSigns.v2Path(V2_DOCKER));
        assertEquals("/", ContainerSigns.v2Path(V2_NAMESPACED));
        assertNull(ContainerSigns.v2Path(V1_KUBE), "cgroup v1 only: no 0:: line");
        assertEquals("/machine.slice/libpod-0123abcd.scope/container", ContainerSigns.v2Path(HYBRID_PODMAN));
    }

    @Test
    void namesRuntimesInCgroupPathsOnce() {
        assertEquals(List.of("docker"), ContainerSigns.runtimeWords(V2_DOCKER));
        assertEquals(List.of("kubepods"), ContainerSigns.runtimeWords(V1_KUBE));
        assertEquals(List.of("libpod"), ContainerSigns.runtimeWords(HYBRID_PODMAN));
        assertEquals(List.of(), ContainerSigns.runtimeWords(V2_NAMESPACED), "a cgroup namespace hides the runtime");
        // a controller's name is not a path: only the part after the second colon counts
        assertEquals(List.of(), ContainerSigns.runtimeWords(List.of("3:docker:/", "garbage")));
    }

    @Test
    void readsContainerFromAnEnvironmentBlock() {
        byte[] env = "PATH=/usr/bin\0container=podman\0HOME=/\0".getBytes(StandardCharsets.UTF_8);
        assertEquals("podman", ContainerSigns.containerVariable(env));
        assertNull(ContainerSigns.containerVariable("PATH=/bin\0xcontainer=no\0".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void capturesThisProcessesCgroupAndSaysWhyPid1IsUnread() throws Exception {
        ContainerSigns c = ContainerSigns.capture();
        List<String> self = Files.readAllLines(ContainerSigns.SELF_CGROUP);
        assertEquals(self, c.selfCgroup());
        assertEquals(ContainerSigns.v2Path(self), c.selfCgroupV2Path());
        assertEquals(Files.exists(ContainerSigns.DOCKERENV), c.hints().contains("/.dockerenv"));
        assertEquals(Files.exists(ContainerSigns.CONTAINERENV), c.hints().contains("/run/.containerenv"));
        boolean environReadable;
        try {
            Files.readAllBytes(ContainerSigns.PID1_ENVIRON);
            environReadable = true;
        } catch (java.io.IOException e) {
            environReadable = false;
        }
        // either pid 1's environment was read, or the record says why not; never a silent null
        assertEquals(
                !environReadable,
                c.unread().containsKey("pid1_container"),
                c.unread().toString());
        if (!environReadable) {
            assertNull(c.pid1Container());
            assertTrue(
                    c.unread().get("pid1_container").startsWith("/proc/1/environ"),
                    c.unread().toString());
        }
    }
}
