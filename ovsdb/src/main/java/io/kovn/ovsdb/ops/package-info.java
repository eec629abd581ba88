/**
 * Transaction operations as values (built without I/O): {@link io.kovn.ovsdb.ops.Operation} and its ten RFC 7047 kinds,
 * {@link io.kovn.ovsdb.ops.Condition}, {@link io.kovn.ovsdb.ops.Mutation}, the {@link io.kovn.ovsdb.ops.Ops} factories,
 * and the results of a transaction.
 */
package io.kovn.ovsdb.ops;
