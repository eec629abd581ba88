package io.kovn.ovsdb.codegen;

import io.kovn.ovsdb.schema.AtomicType;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything the generator needs to write one table's record; built from the schema by {@link #of(TableSchema)}, which
 * settles every Java name (and its clashes) up front.
 *
 * @param table the table's schema name
 * @param className the record's simple name
 * @param isRoot whether the table is a root table
 * @param indexes the table's indexes (column names)
 * @param columns the columns, in schema order
 */
record TableModel(
        String table, String className, boolean isRoot, List<List<String>> indexes, List<ColumnModel> columns) {

    /** Members every record has; a column's field gets a {@code _} suffix when it would clash. */
    private static final Set<String> RESERVED_MEMBERS = Set.of(
            "uuid",
            "c",
            "tableName",
            "toColumns",
            "fromRow",
            "newRow",
            "hashCode",
            "toString",
            "equals",
            "getClass",
            "notify",
            "notifyAll",
            "wait",
            "clone",
            "finalize");

    private static final Set<String> RESERVED_CONSTANTS = Set.of("TABLE_NAME", "IS_ROOT", "INDEXES", "COLUMNS");
    /** Type names an enum must not shadow inside the record. */
    private static final Set<String> RESERVED_TYPES = Set.of(
            "String",
            "Long",
            "Double",
            "Boolean",
            "Object",
            "Override",
            "RowValues",
            "Integer",
            "Enum",
            "Record",
            "Class",
            "Math",
            "System",
            "Character",
            "Number",
            "Iterable",
            "Comparable");

    TableModel {
        indexes = indexes.stream().map(List::copyOf).toList();
        columns = List.copyOf(columns);
    }

    static TableModel of(TableSchema schema) {
        String className = Naming.typeName(schema.name());
        Set<String> enumNames = new HashSet<>();
        List<ColumnModel> columns = new ArrayList<>();
        for (ColumnSchema c : schema.columns().values()) {
            String field = Naming.memberName(c.name());
            if (RESERVED_MEMBERS.contains(field)) {
                field = field + "_";
            }
            String constant = Naming.constantName(c.name());
            if (RESERVED_CONSTANTS.contains(constant)) {
                constant = constant + "_COLUMN";
            }
            ColumnType type = c.type();
            ColumnModel.Kind kind = type.isMap()
                    ? ColumnModel.Kind.MAP
                    : type.isScalar()
                            ? ColumnModel.Kind.SCALAR
                            : type.isOptional() ? ColumnModel.Kind.OPTIONAL : ColumnModel.Kind.SET;
            String base = Naming.typeName(c.name());
            AtomModel key = atom(type.key(), type.isMap() ? base + "Key" : base, className, enumNames);
            AtomModel value = type.isMap() ? atom(type.value(), base + "Value", className, enumNames) : null;
            columns.add(new ColumnModel(
                    c.name(), field, constant, kind, key, value, type.key().refTable()));
        }
        List<List<String>> indexes = schema.indexes().stream()
                .map(ix -> ix.stream().sorted().toList())
                .toList();
        return new TableModel(schema.name(), className, schema.isRoot(), indexes, columns);
    }

    private static AtomModel atom(BaseType base, String enumName, String className, Set<String> taken) {
        if (!base.isEnum() || base.type() != AtomicType.STRING) {
            return new AtomModel(base.type(), null, List.of());
        }
        String name = enumName;
        if (name.equals(className) || RESERVED_TYPES.contains(name) || taken.contains(name)) {
            name = name + "Enum";
        }
        if (!taken.add(name)) {
            throw new IllegalStateException("two enums named " + name + " in " + className);
        }
        List<String> values =
                base.enumValues().stream().map(String.class::cast).sorted().toList();
        return new AtomModel(base.type(), name, values);
    }
}
