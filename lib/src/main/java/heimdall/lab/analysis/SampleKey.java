package heimdall.lab.analysis;

/**
 * One series of samples: a summary row's index and a variant ({@code "filtered"}, {@code "none"}, or a
 * reproduction's own). The key under which samples.arrow, distributions.json and a run's counts are grouped.
 */
record SampleKey(int row, String variant) {}
