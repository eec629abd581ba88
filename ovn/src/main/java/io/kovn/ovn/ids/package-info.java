/**
 * Identity of the OVN rows kovn owns: {@link io.kovn.ovn.ids.ObjectId} (external_ids, primary id, hashed names),
 * {@link io.kovn.ovn.ids.OwnerType}, {@link io.kovn.ovn.ids.IdKey} and {@link io.kovn.ovn.ids.ObjectNames}. Pure; no
 * I/O.
 */
package io.kovn.ovn.ids;
