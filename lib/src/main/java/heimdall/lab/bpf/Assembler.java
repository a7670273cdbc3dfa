package heimdall.lab.bpf;

import java.util.ArrayList;
import java.util.List;

/**
 * Lays out forward-jumping code with symbolic labels. A conditional jump whose target is more than
 * 255 instructions ahead (the reach of an 8-bit offset) gets a {@code JA} trampoline right after it,
 * whose 32-bit offset reaches anywhere; layout is repeated until no jump needs another trampoline.
 */
final class Assembler {
    /** A position in the code, placed once. */
    static final class Label {
        int pos = -1;
        boolean placed;
    }

    private sealed interface Item permits Place, Plain, Cond, Jump {}

    private record Place(Label label) implements Item {}

    private record Plain(Insn insn) implements Item {}

    private static final class Cond implements Item {
        final int op;
        final int k;
        final Label t;
        final Label f;
        boolean farT;
        boolean farF;
        int pos;

        Cond(int op, int k, Label t, Label f) {
            this.op = op;
            this.k = k;
            this.t = t;
            this.f = f;
        }

        int size() {
            return 1 + (farT ? 1 : 0) + (farF ? 1 : 0);
        }
    }

    private record Jump(Label to) implements Item {}

    private final List<Item> items = new ArrayList<>();

    Label label() {
        return new Label();
    }

    void place(Label l) {
        if (l.placed) {
            throw new IllegalStateException("label placed twice");
        }
        l.placed = true;
        items.add(new Place(l));
    }

    /** Places a new label here and returns it. */
    Label here() {
        Label l = label();
        place(l);
        return l;
    }

    void emit(Insn insn) {
        items.add(new Plain(insn));
    }

    /** A conditional jump (JEQ, JGT, JGE, JSET with K) to {@code t} when true, {@code f} when false. */
    void cond(int op, int k, Label t, Label f) {
        items.add(new Cond(op, k, t, f));
    }

    void jump(Label to) {
        items.add(new Jump(to));
    }

    List<Insn> assemble() {
        boolean changed = true;
        while (changed) {
            layout();
            changed = false;
            List<Cond> grow = new ArrayList<>();
            for (Item it : items) {
                if (it instanceof Cond c) {
                    int after = c.pos + 1;
                    if ((!c.farT && distance(c.t, after) > 255) || (!c.farF && distance(c.f, after) > 255)) {
                        grow.add(c);
                    }
                }
            }
            // Grow only after the whole pass: positions are those of this pass's layout.
            for (Cond c : grow) {
                int after = c.pos + 1;
                c.farT |= distance(c.t, after) > 255;
                c.farF |= distance(c.f, after) > 255;
                changed = true;
            }
        }
        List<Insn> out = new ArrayList<>();
        for (Item it : items) {
            if (it instanceof Plain p) {
                out.add(p.insn());
            } else if (it instanceof Jump j) {
                out.add(Insn.ja(distance(j.to(), out.size() + 1)));
            } else if (it instanceof Cond c) {
                int after = out.size() + 1;
                int jt = c.farT ? 0 : distance(c.t, after);
                int jf = c.farF ? (c.farT ? 1 : 0) : distance(c.f, after);
                out.add(Insn.jump(c.op, c.k, jt, jf));
                if (c.farT) {
                    out.add(Insn.ja(distance(c.t, out.size() + 1)));
                }
                if (c.farF) {
                    out.add(Insn.ja(distance(c.f, out.size() + 1)));
                }
            }
        }
        return out;
    }

    private void layout() {
        int pos = 0;
        for (Item it : items) {
            if (it instanceof Place p) {
                p.label().pos = pos;
            } else if (it instanceof Cond c) {
                c.pos = pos;
                pos += c.size();
            } else {
                pos++;
            }
        }
    }

    private static int distance(Label target, int from) {
        if (!target.placed) {
            throw new IllegalStateException("jump to a label never placed");
        }
        int d = target.pos - from;
        if (d < 0) {
            throw new IllegalStateException("backward jump (BPF jumps only forward)");
        }
        return d;
    }
}
