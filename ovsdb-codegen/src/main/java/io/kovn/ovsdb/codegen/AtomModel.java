package io.kovn.ovsdb.codegen;

import io.kovn.ovsdb.schema.AtomicType;
import java.util.List;

/**
 * How one atom type (a column's key or value) looks in generated Java.
 *
 * @param type the OVSDB atomic type
 * @param enumType the simple name of the generated enum for a string enumeration, or {@code null}
 * @param enumValues the enumeration's wire values, sorted; empty unless {@code enumType} is set
 */
record AtomModel(AtomicType type, String enumType, List<String> enumValues) {

    static final String UUID = "io.kovn.ovsdb.data.Uuid";

    AtomModel {
        enumValues = List.copyOf(enumValues);
    }

    boolean isEnum() {
        return enumType != null;
    }

    /** The reference type, for use inside {@code Optional}, {@code Set} and {@code Map}. */
    String boxed() {
        if (isEnum()) {
            return enumType;
        }
        return switch (type) {
            case STRING -> "String";
            case INTEGER -> "Long";
            case REAL -> "Double";
            case BOOLEAN -> "Boolean";
            case UUID -> UUID;
        };
    }

    /** The type of a required single atom. */
    String scalar() {
        return switch (type) {
            case INTEGER -> "long";
            case REAL -> "double";
            case BOOLEAN -> "boolean";
            default -> boxed();
        };
    }

    /** A {@code Function<Object, T>} expression turning a canonical atom into the Java value. */
    String reader() {
        if (isEnum()) {
            return enumType + "::fromWire";
        }
        return "RowValues::" + readerName();
    }

    /** The {@code RowValues} method reading this atom type. */
    String readerName() {
        return switch (type) {
            case STRING -> "string";
            case INTEGER -> "integer";
            case REAL -> "real";
            case BOOLEAN -> "bool";
            case UUID -> "uuid";
        };
    }

    /** A {@code Function<T, Object>} expression turning the Java value into a canonical atom. */
    String writer() {
        return isEnum() ? enumType + "::wire" : "RowValues::same";
    }

    /** The Java literal of the OVSDB default of a required atom, or {@code null} when there is none. */
    String defaultLiteral() {
        if (isEnum()) {
            return "null";
        }
        return switch (type) {
            case STRING -> "\"\"";
            case INTEGER -> "0L";
            case REAL -> "0.0";
            case BOOLEAN -> "false";
            case UUID -> "null";
        };
    }
}
