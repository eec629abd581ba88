package io.kovn.node.cni;

import java.util.Optional;

/** The operations of the CNI specification 1.1, as named by {@code CNI_COMMAND}. */
public enum CniCommand {
    ADD,
    DEL,
    CHECK,
    STATUS,
    GC,
    VERSION;

    /** The command named exactly {@code name} (CNI command names are upper case), if any. */
    public static Optional<CniCommand> parse(String name) {
        for (CniCommand c : values()) {
            if (c.name().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
