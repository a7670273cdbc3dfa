package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of {@code ./lab reproduce mechanisms}'s {@code summary.json}: one call (an {@code openat} of a
 * name beneath {@code in/} or outside it, at a path depth, or a {@code stat}) timed under one mechanism —
 * Landlock, a seccomp floor, the broker (its supervisor and answer in the measured row), or a floor or the
 * broker with Landlock — against the same call with nothing, in the same run. Its fields are the floor-cost
 * row's (median, p99, added with intervals, noisy), flat, after the mechanism's own.
 *
 * @param mechanism what confines the call: {@code landlock}, {@code floor}, {@code floor + landlock},
 *     {@code broker}, {@code broker + landlock}, {@code floor + broker}
 * @param landlock whether the child built the Landlock ruleset {@code readBeneath(in/)}
 * @param name the name the call gives, from {@code in/} as its working directory
 * @param depth the name's components ({@code ..} counted)
 * @param policy what {@code readBeneath(in/)} decides for the name: {@code admit} or {@code refuse}
 * @param result the last measured call's outcome: {@code ok}, or its errno's name
 * @param landlockAbi the Landlock ABI the child's kernel answered (null without Landlock)
 * @param measured the call's figures, as a floor-cost row has them
 * @param intervals the confidence intervals, after every other key
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record MechanismsRow(
        @JsonProperty(value = "mechanism", required = true) String mechanism,
        @JsonProperty("landlock") Boolean landlock,
        @JsonProperty("name") String name,
        @JsonProperty("depth") Long depth,
        @JsonProperty("policy") String policy,
        @JsonProperty("result") String result,
        @JsonProperty("landlock_abi") Long landlockAbi,
        @Flat(omit = "intervals") FloorCostRow measured,
        @Flat RowIntervals intervals)
        implements MeasuredCallRow {

    public MechanismsRow {
        intervals = intervals == null ? RowIntervals.NONE : intervals;
        if (measured == null) {
            throw new IllegalArgumentException("a mechanisms row holds the call it measured");
        }
    }

    /** The supervisor and answer of a brokered row ({@code native continue}), or null. */
    public String broker() {
        FloorCostRow.Brokering b = measured.brokering();
        if (b.supervisor() == null) {
            return null;
        }
        return b.supervisor().label() + " " + b.answer().label();
    }

    @Override
    public List<String> labelParts() {
        List<String> parts = new ArrayList<>(List.of(mechanism));
        if (broker() != null) {
            parts.add(broker());
        }
        parts.add(call() + " " + policy + " depth " + depth);
        return parts;
    }
}
