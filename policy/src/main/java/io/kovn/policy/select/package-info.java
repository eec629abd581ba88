/**
 * Selection: label selector semantics and an index of namespaces, pods and nodes with the facts policies read (IPs,
 * named ports, host networking). Shared by the translation and the evaluator.
 */
package io.kovn.policy.select;
