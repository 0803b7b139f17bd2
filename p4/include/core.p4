/*
 * core.p4 -- the Janus core library.
 *
 * Part of the Janus P4_16 toolchain and written for it.  These are the
 * target-independent declarations that the P4_16 language specification
 * (v1.2.4, appendix "P4 core library") says every program sees: the standard
 * error codes, the packet_in / packet_out externs used by parsers and
 * deparsers, verify, NoAction, the three standard match kinds and
 * static_assert.  Architecture files such as v1model.p4 include this file
 * first and then add their own declarations.
 */

/* The include guard is p4c's name for it, so that programs testing
 * `#ifdef _CORE_P4_` see the core library as included; JANUS_CORE_P4 is
 * this project's older name, kept. */
#ifndef _CORE_P4_
#define _CORE_P4_
#define JANUS_CORE_P4

/*
 * Error codes known to every program.  Programs may add more with their own
 * `error { ... }` declarations; all of them end up in the one `error`
 * namespace and are written error.Name.
 */
error {
    NoError,              // the parser finished without a problem
    PacketTooShort,       // extract or lookahead ran past the end of the packet
    NoMatch,              // a select expression matched none of its cases
    StackOutOfBounds,     // .next / .last used on a full or empty header stack
    HeaderTooShort,       // a varbit extract asked for more bits than the field holds
    ParserTimeout,        // the parser took longer than the target allows
    ParserInvalidArgument // a parser operation got an argument the target rejects
}

/*
 * The packet being parsed.  The architecture hands one to each parser; the
 * parser reads it front to back through an internal cursor.
 */
extern packet_in {
    // Copy the next bits of the packet into the fixed-size header `hdr`,
    // mark it valid and move the cursor past them.  If `hdr` is the `.next`
    // element of a stack, that stack's next index moves on as well.
    // Fails with PacketTooShort (or StackOutOfBounds for a full stack).
    void extract<T>(out T hdr);
    // Same, for a header whose last field is a varbit: that field receives
    // `variableFieldSizeInBits` bits.  Can also fail with HeaderTooShort
    // (size above the varbit's maximum) or ParserInvalidArgument (size not
    // usable, e.g. not a multiple of 8 on some targets).
    void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
    // Return the next bits of the packet, interpreted as a T, WITHOUT moving
    // the cursor.  Fails with PacketTooShort.
    T lookahead<T>();
    // Skip `sizeInBits` bits of the packet.  Fails with PacketTooShort.
    void advance(in bit<32> sizeInBits);
    // Total length of the packet in bytes (not every target can tell).
    bit<32> length();
}

/*
 * The packet being built by a deparser.
 */
extern packet_out {
    // Append `hdr` to the outgoing packet.  Valid headers are written
    // field by field; invalid ones are skipped.  A stack, union or struct
    // is emitted member by member, in declaration order.
    void emit<T>(in T hdr);
}

/*
 * Parser-only check: when `check` is false, the parser stops, records
 * `toSignal` as its error and goes to the reject state.
 */
extern void verify(in bool check, in error toSignal);

/*
 * The action that does nothing.  It is the default action of a table that
 * names no other default.
 */
@noWarn("unused")
action NoAction() {}

/*
 * The match kinds every target knows, for table keys.
 */
match_kind {
    exact,   // key equals the entry's value
    ternary, // key equals the value on the bits where the entry's mask is 1
    lpm      // longest-prefix match: the matching entry with the longest prefix wins
}

/*
 * Compile-time checks.  Arguments must be compile-time known; a false
 * `check` stops compilation (with `message` when given).  They return a
 * bool so that they can be used at top level, e.g.
 *     const bool ok = static_assert(SOME_MACRO > 3, "too small");
 */
extern bool static_assert(bool check, string message);
extern bool static_assert(bool check);

#endif /* _CORE_P4_ */
