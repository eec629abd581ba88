package io.kovn.pki;

import java.util.Arrays;
import java.util.List;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * The parts of an X.509 subject Kubernetes uses for client certificates: the common name is the user name, the
 * organizations are the groups.
 *
 * @param commonNames every CN attribute (a well-formed subject has exactly one)
 * @param organizations every O attribute, in order
 */
public record Subject(List<String> commonNames, List<String> organizations) {
    public Subject {
        commonNames = List.copyOf(commonNames);
        organizations = List.copyOf(organizations);
    }

    /** A subject with one CN and the given organizations. */
    public static Subject of(String commonName, String... organizations) {
        return new Subject(List.of(commonName), List.of(organizations));
    }

    /** The single common name, or empty text when there is none or more than one. */
    public String commonName() {
        return commonNames.size() == 1 ? commonNames.getFirst() : "";
    }

    /** This subject as an X.500 name (organizations first, then CN, as kubelet writes it). */
    public X500Name toX500Name() {
        X500NameBuilder builder = new X500NameBuilder(BCStyle.INSTANCE);
        organizations.forEach(o -> builder.addRDN(BCStyle.O, o));
        commonNames.forEach(cn -> builder.addRDN(BCStyle.CN, cn));
        return builder.build();
    }

    /** Reads CN and O attributes from an X.500 name. */
    public static Subject from(X500Name name) {
        return new Subject(values(name, BCStyle.CN), values(name, BCStyle.O));
    }

    private static List<String> values(X500Name name, ASN1ObjectIdentifier type) {
        return Arrays.stream(name.getRDNs())
                .flatMap(rdn -> Arrays.stream(rdn.getTypesAndValues()))
                .filter(atv -> atv.getType().equals(type))
                .map(AttributeTypeAndValue::getValue)
                .map(Subject::text)
                .toList();
    }

    private static String text(ASN1Encodable value) {
        return value instanceof ASN1String string ? string.getString() : IETFUtils.valueToString(value);
    }
}
