/**
 * The wire level: JSON form of OVSDB values and operations ({@link io.kovn.ovsdb.wire.ValueCodec},
 * {@link io.kovn.ovsdb.wire.OperationCodec}, the streaming {@link io.kovn.ovsdb.wire.OperationWriter}) and message
 * framing in a byte stream ({@link io.kovn.ovsdb.wire.JsonFramer}). Received values are read as streams where they can
 * be large: {@link io.kovn.ovsdb.wire.RawJson} (a message's members, read in one pass) and
 * {@link io.kovn.ovsdb.wire.ValueReader} (values and rows, no JSON tree).
 */
package io.kovn.ovsdb.wire;
