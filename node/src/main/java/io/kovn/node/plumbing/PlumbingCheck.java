package io.kovn.node.plumbing;

import java.util.List;

/** Outcome of {@link PodPlumber#check}: the pod's wiring is intact, or what is wrong with it. */
public sealed interface PlumbingCheck {
    /** Every piece of the wiring is present and as specified. */
    record Healthy() implements PlumbingCheck {}

    /**
     * Something is missing or differs.
     *
     * @param problems one readable line per problem
     */
    record Broken(List<String> problems) implements PlumbingCheck {
        public Broken {
            problems = List.copyOf(problems);
        }
    }
}
