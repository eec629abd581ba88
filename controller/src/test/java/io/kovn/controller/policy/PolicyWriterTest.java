package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.Uuid;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a refused policy write is reported: the same refusal reads the same on every retry. */
class PolicyWriterTest {
    private static final String IN_THE_WAY = "3b4372bc-0bad-415f-ae82-640e5a34542a";

    /** ovsdb-server's details for an insert that collides with an existing row's unique name. */
    private static String refusal(String inserted) {
        return "commit (after operation 2) failed: constraint violation: Transaction causes multiple rows in \"Port_Group\" table"
                + " to have identical values (a1234) for index on column \"name\".  First row, with UUID " + IN_THE_WAY
                + ", existed in the database before this transaction and was not modified by the transaction.  Second row, with"
                + " UUID " + inserted + ", was inserted by this transaction.";
    }

    @Test
    void theUuidsOfRowsTheRefusedTransactionInsertedAreLeftOutTheRowsInTheWayKept() {
        Set<Uuid> existing = Set.of(Uuid.of(IN_THE_WAY));
        String first =
                PolicyWriter.withoutNewRowUuids(refusal("592e28b3-77c1-47b7-8c57-7c1044501215"), existing::contains);
        String second =
                PolicyWriter.withoutNewRowUuids(refusal("434535b7-4499-4975-94bf-ac2f322843a7"), existing::contains);

        assertThat(first)
                .isEqualTo(second)
                .contains("First row, with UUID " + IN_THE_WAY + ", existed")
                .contains("Second row, with UUID (new), was inserted")
                .doesNotContain("592e28b3");
    }

    @Test
    void aMessageWithoutUuidsIsLeftAsItIs() {
        String message = "referential integrity violation: cannot delete Meter row";
        assertThat(PolicyWriter.withoutNewRowUuids(message, u -> false)).isEqualTo(message);
    }
}
