// Sample 03: a call sent through a supervisor. The policy sees each open the child makes (its kind, name and
// flags, read once into the supervisor's copy) and answers it: here every name holding "secret" is refused with
// EACCES, every other one is brokered (opened by the supervisor beneath the job's in/ and handed over).
var rt = Lab.broker(n -> n.readPath() > 0 && n.pathContains("secret".getBytes()) ? Answer.error(13) : Answer.BROKER)
        .javaSupervisor().open("data.txt").roundTrip();
System.out.println(rt);
System.out.println(rt.decisions());
/exit
