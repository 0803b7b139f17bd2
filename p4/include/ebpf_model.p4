/*
 * ebpf_model.p4 -- the Janus description of the eBPF packet-filter
 * architecture.
 *
 * Part of the Janus P4_16 toolchain and written for it, from the public
 * documentation of p4c's eBPF back end (p4c-ebpf).  That back end turns a
 * P4 program into C for an eBPF program attached to the Linux kernel, for
 * example as a Traffic Control (TC) classifier.  The architecture is a pure
 * filter: a parser fills in the headers, then a control looks at them and
 * answers one question, "let this packet through or not?".  There is no
 * deparser, so the packet itself is never changed.
 *
 * State lives in eBPF maps (kernel key/value tables shared by every CPU
 * running the program and readable from user space):
 *  - each P4 table becomes maps, whose kind is chosen with the table
 *    property `implementation = array_table(N)` or `= hash_table(N)`;
 *  - each CounterArray becomes a map of 32-bit counters.
 *
 * Target limits stated by the back end's documentation (not checked by
 * Janus): no ternary matches, no arithmetic on values wider than 32 bits,
 * parsers without loops, and identifiers starting with `ebpf_` are
 * reserved.  Programs may declare their own extern functions, implemented
 * in C and linked in (p4c-ebpf's --emit-externs).
 *
 * The names, parameter lists and directions below follow the ones that
 * existing eBPF-filter programs are written against, so those programs
 * build unchanged; the comments are this project's own.
 */

/* p4c's include guard name; JANUS_EBPF_MODEL_P4 is this project's older
 * name, kept. */
#ifndef _EBPF_MODEL_P4_
#define _EBPF_MODEL_P4_
#define JANUS_EBPF_MODEL_P4

#include <core.p4>

/*
 * An array of 32-bit counters kept in an eBPF map, indexed 0 .. max_index.
 * With `sparse` true the map is a hash map (only cells ever touched take
 * memory); with `sparse` false it is a dense array map.  User space reads
 * the cells through the map.
 */
extern CounterArray {
    CounterArray(bit<32> max_index, bool sparse);
    // Add one to cell `index`.
    void increment(in bit<32> index);
    // Add `value` (e.g. a packet length) to cell `index`.
    void add(in bit<32> index, in bit<32> value);
}

/*
 * Table implementations.  An instance is the value of a table's
 * `implementation` property and tells how the table is stored:
 *
 *     table t {
 *         key = { ... }
 *         actions = { ... }
 *         implementation = hash_table(1024);
 *     }
 *
 * `size` is the largest number of entries the table can hold.
 */

// Stored in an eBPF array map, indexed directly by the key (suits small
// exact keys).  For an lpm table only the size is used: the table is an
// LPM-trie map.
extern array_table {
    array_table(bit<32> size);
}

// Stored in an eBPF hash map keyed by the whole key.
extern hash_table {
    hash_table(bit<32> size);
}

/*
 * The two programmable blocks.
 *
 * H is the program's headers struct.  The parser gets the packet and fills
 * in the headers; if it ends in `reject` (or fails), the packet is dropped
 * and the filter does not run.  The filter control then sets `accept`:
 * true passes the packet on, false drops it.
 */
parser parse<H>(packet_in packet, out H headers);
control filter<H>(inout H headers, out bool accept);

/*
 * The top-level package.  A program ends with, e.g.,
 *     ebpfFilter(MyParser(), MyFilter()) main;
 */
package ebpfFilter<H>(parse<H> prs, filter<H> filt);

#endif /* _EBPF_MODEL_P4_ */
