/**
 * The OVSDB client: {@link io.kovn.ovsdb.client.OvsdbClient} (immutable, from a builder; unix, tcp and ssl endpoints;
 * {@code list_dbs}, {@code get_schema}, {@code transact}; blocking and async; reconnect with backoff; schema version
 * check) and its typed failures.
 */
package io.kovn.ovsdb.client;
