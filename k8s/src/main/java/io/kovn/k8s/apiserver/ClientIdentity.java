package io.kovn.k8s.apiserver;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/**
 * Who a request comes from, as kube-apiserver's authenticators name it: a user and its groups.
 *
 * @param user the user name (a client certificate's CN)
 * @param groups the groups (a client certificate's O values), without {@code system:authenticated}, which the
 *     API server adds to every authenticated request
 */
public record ClientIdentity(String user, List<String> groups) {
    public ClientIdentity {
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("user must not be blank");
        }
        groups = List.copyOf(groups);
    }

    public static ClientIdentity of(String user, String... groups) {
        return new ClientIdentity(user, List.of(groups));
    }

    /**
     * The identity a client certificate carries: user = the one CN, groups = every O, in order. Empty when the
     * subject has no CN or more than one (kube-apiserver would pick one; an ambiguous name is refused here).
     */
    public static Optional<ClientIdentity> fromCertificate(X509Certificate certificate) {
        List<String> commonNames = new ArrayList<>();
        List<String> organizations = new ArrayList<>();
        try {
            LdapName name = new LdapName(certificate.getSubjectX500Principal().getName(X500Principal.RFC2253));
            // RFC 2253 lists the most significant RDN last; LdapName's order is the reverse, i.e. as issued.
            for (Rdn rdn : name.getRdns()) {
                NamingEnumeration<? extends Attribute> attributes = rdn.toAttributes().getAll();
                while (attributes.hasMore()) {
                    Attribute attribute = attributes.next();
                    List<String> into = switch (attribute.getID().toUpperCase(java.util.Locale.ROOT)) {
                        case "CN" -> commonNames;
                        case "O" -> organizations;
                        default -> null;
                    };
                    if (into != null) {
                        NamingEnumeration<?> values = attribute.getAll();
                        while (values.hasMore()) {
                            into.add(String.valueOf(values.next()));
                        }
                    }
                }
            }
        } catch (InvalidNameException e) {
            return Optional.empty();
        } catch (NamingException e) {
            return Optional.empty();
        }
        if (commonNames.size() != 1 || commonNames.getFirst().isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new ClientIdentity(commonNames.getFirst(), organizations));
    }
}
