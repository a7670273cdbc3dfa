package heimdall.lab.explore;

/**
 * A trace replayed through one layout.
 *
 * @param layout the layout's name
 * @param events events in the trace
 * @param rejections denied calls plus refused deliveries (the same in every layout)
 * @param repeats timed replays
 * @param nanos wall time of the timed replays
 * @param payloadBytes the layout's table bytes, -1 when not measured
 */
public record Replay(String layout, int events, int rejections, int repeats, long nanos, long payloadBytes) {
    /** ns an event over the timed replays. */
    public double nsPerEvent() {
        return events == 0 ? 0 : (double) nanos / ((long) events * repeats);
    }
}
