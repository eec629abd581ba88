package io.kovn.ovsdb.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class NamedUuidTest {
    /** The name check accepts exactly the OVSDB ids of RFC 7047: {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
    @Property(tries = 2000)
    void acceptsExactlyOvsdbIds(@ForAll @StringLength(max = 6) @CharRange(from = '.', to = '|') String name) {
        boolean id = name.matches("[a-zA-Z_][a-zA-Z0-9_]*");
        if (id) {
            assertThat(new NamedUuid(name).name()).isEqualTo(name);
        } else {
            assertThatThrownBy(() -> new NamedUuid(name))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not an OVSDB id");
        }
    }

    @Test
    void edges() {
        assertThat(new NamedUuid("_").name()).isEqualTo("_");
        assertThat(new NamedUuid("acl12_x").name()).isEqualTo("acl12_x");
        assertThatThrownBy(() -> new NamedUuid("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NamedUuid("9row")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NamedUuid("row-1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NamedUuid("rów")).isInstanceOf(IllegalArgumentException.class);
    }
}
