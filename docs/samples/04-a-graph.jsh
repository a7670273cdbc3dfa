// Sample 04: the syscall-sequence follower in user space. A graph recorded from a real run (ptrace), prepared
// into its layouts; a cursor steps it call by call and says whether each call is allowed where it stands.
var g = Lab.record("/bin/true");
var p = g.prepare();
var s = p.cursor("main");
System.out.println("reboot allowed here: " + s.step("reboot").allowed());
/exit
