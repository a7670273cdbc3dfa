// Sample 02: one call timed in the measured child (a C runner, no JVM in the loop), bare and under a floor.
// Each run is a fresh child; a run's median is one observation, so the intervals are over runs (docs/statistics.md).
// Quick counts here: three runs of 20,000 calls; the published method is 7 runs of 1,000,000.
var abcdf = Lab.fixtureFloor("abcdf");
var bare = Lab.measure("getppid").runs(3).warmup(5_000).calls(20_000).run();
var under = Lab.measure("getppid").under(abcdf).runs(3).warmup(5_000).calls(20_000).run();
System.out.println(bare);
System.out.println(under);
// what the floor adds: filtered minus bare median, with its Hodges–Lehmann interval
System.out.println(under.addedOver(bare));
/exit
