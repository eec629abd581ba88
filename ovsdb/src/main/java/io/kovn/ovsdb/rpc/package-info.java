/**
 * JSON-RPC 1.0 sessions over one transport: request ids, pending futures, notifications, echo,
 * timeouts and inactivity probes ({@link io.kovn.ovsdb.rpc.RpcSession}).
 */
package io.kovn.ovsdb.rpc;
