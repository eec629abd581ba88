package io.kovn.identity.webhook;

import java.util.List;
import java.util.Optional;

/**
 * The requester of an admission request (request.userInfo).
 *
 * @param username the authenticated user name
 * @param groups the user's groups
 */
public record UserInfo(String username, List<String> groups) {
    /** User name prefix of node identities; the node name follows it. */
    public static final String NODE_USER_PREFIX = "system:ovn-node:";
    /** Group of node identities. */
    public static final String NODE_GROUP = "system:ovn-nodes";

    public UserInfo {
        groups = List.copyOf(groups);
    }

    /**
     * The node this user acts for, when it is a node identity. Any user named {@code system:ovn-node:<node>} is treated
     * as that node's identity, with or without the group: restricting a look-alike user is the safe side.
     */
    public Optional<String> nodeIdentity() {
        return username.startsWith(NODE_USER_PREFIX)
                ? Optional.of(username.substring(NODE_USER_PREFIX.length()))
                : Optional.empty();
    }
}
