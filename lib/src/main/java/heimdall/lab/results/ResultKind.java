package heimdall.lab.results;

import heimdall.lab.BadInput;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Every reproduction that writes a results folder, with the name {@code summary.json} gives it and
 * the type of its rows: the one place that says which row type a folder holds.
 */
public enum ResultKind {
    FLOOR_COST("floor-cost", FloorCostRow.class),
    HOST_LOAD("host-load", HostLoadRow.class),
    ATTACH_COST("attach-cost", AttachCostRow.class),
    KERNEL_BITMAP("kernel-bitmap", KernelBitmapRow.class),
    GRAPH_LOOKUP("graph-lookup", GraphLookupRow.class),
    /** {@code ./lab graph jmh}; its older folders' environment.json spells it {@code "graph jmh"}. */
    GRAPH_JMH("graph-jmh", GraphJmhRow.class, "graph jmh"),
    LANES("lanes", LanesRow.class),
    FOLLOWER_COST("follower-cost", FollowerCostRow.class),
    KERNEL_MATRIX("kernel-matrix", KernelMatrixRow.class);

    private final String reproduction;
    private final Class<? extends ResultRow> rowType;
    private final List<String> alsoCalled;

    ResultKind(String reproduction, Class<? extends ResultRow> rowType, String... alsoCalled) {
        this.reproduction = reproduction;
        this.rowType = rowType;
        this.alsoCalled = List.of(alsoCalled);
    }

    /** The reproduction's name, as {@code ./lab reproduce NAME} and {@code summary.json} spell it. */
    public String reproduction() {
        return reproduction;
    }

    /** The record type of its {@code summary.json} rows. */
    public Class<? extends ResultRow> rowType() {
        return rowType;
    }

    /**
     * The kind named {@code name} ({@code file} and {@code field} say where the name was read, for
     * the error); bad input naming them and the known names when there is none.
     */
    public static ResultKind named(String name, Path file, String field) {
        for (ResultKind k : values()) {
            if (k.reproduction.equals(name) || k.alsoCalled.contains(name)) {
                return k;
            }
        }
        throw BadInput.at(file, field, "unknown reproduction \"" + heimdall.lab.Printable.of(name) + "\"; known: "
                + Arrays.stream(values()).map(ResultKind::reproduction).toList());
    }
}
