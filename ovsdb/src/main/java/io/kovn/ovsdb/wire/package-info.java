/**
 * The wire level: JSON form of OVSDB values and operations ({@link io.kovn.ovsdb.wire.ValueCodec},
 * {@link io.kovn.ovsdb.wire.OperationCodec}, the streaming {@link io.kovn.ovsdb.wire.OperationWriter})
 * and message framing in a byte stream ({@link io.kovn.ovsdb.wire.JsonFramer}).
 */
package io.kovn.ovsdb.wire;
