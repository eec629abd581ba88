package io.kovn.ovsdb.data;

/**
 * Marks a collection that can never change and holds only plain atoms (strings, integers, reals, booleans, uuids):
 * generated rows keep it as it is instead of copying it, so a desired address set of 10,000 addresses is not copied
 * once more for every row object made of it.
 */
public interface FrozenValue {}
