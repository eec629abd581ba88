package io.kovn.sandbox.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a conformance test class whose cases run over IPv6 in a dual-stack sandbox; unmarked ones run over IPv4. Not
 * inherited: an IPv6 subclass marks itself, its IPv4 parent stays IPv4.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OverIpv6 {}
