/**
 * Host load made to order, for measuring what a busy host does to the figures: {@link
 * heimdall.lab.load.LoadGenerator} runs {@link heimdall.lab.load.Worker}s (spinning or making system
 * calls, pinned, at a nice level and an intensity) until stopped, and reports what they ran. The
 * {@code host-load} reproduction measures the floor-cost rows idle and under such a load.
 *
 * <p>Uses: {@code heimdall.lab} and {@code sys}.
 */
package heimdall.lab.load;
