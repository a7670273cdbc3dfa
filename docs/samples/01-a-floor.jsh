// Sample 01: a floor is a profile compiled to classic BPF, before anything runs.
// Podman's default profile (Debian's golang-github-containers-common) as the kernel would see it: how long the
// program is, how many instructions a call executes in it, and which calls the kernel's action cache answers
// without running it at all.
var podman = Lab.floor(Path.of("/usr/share/containers/seccomp.json"));
System.out.println("instructions: " + podman.length());
System.out.println("getppid executes " + podman.insnsPerCall("getppid") + " of them");
System.out.println(podman.cachePrediction());
/exit
