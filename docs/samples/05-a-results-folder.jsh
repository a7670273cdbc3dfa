// Sample 05: a results folder read back as typed rows and tables (the committed full floor-cost run).
// Every file is read as hostile input: a damaged folder is bad input naming the file, row and field.
var r = Results.load(Path.of("results/2026-11-30-vm-floor-cost-3"));
System.out.println(r);
System.out.println(Tables.summary(r).first(5));
/exit
