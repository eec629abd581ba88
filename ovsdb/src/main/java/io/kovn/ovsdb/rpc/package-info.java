/**
 * JSON-RPC 1.0 sessions over one transport: request ids, pending futures, notifications, echo, timeouts and inactivity
 * probes ({@link io.kovn.ovsdb.rpc.RpcSession}). A received message is read once: notification params and response
 * results go to their handler or decoder unparsed.
 */
package io.kovn.ovsdb.rpc;
