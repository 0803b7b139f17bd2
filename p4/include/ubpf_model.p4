/*
 * ubpf_model.p4 -- the Janus description of the uBPF architecture.
 *
 * Part of the Janus P4_16 toolchain and written for it, from the public
 * documentation of p4c's uBPF back end (p4c-ubpf) and its example
 * programs.  That back end turns a P4 program into C for the user-space
 * BPF virtual machine (uBPF), as used by the P4rt-OVS switch, which runs
 * the program on packets it is told to (e.g. by an OpenFlow rule).  Unlike
 * the kernel eBPF filter, the pipeline may rewrite the packet: a parser
 * fills in headers and metadata, a control ("pipeline") processes them
 * with tables, registers and the functions below, and a deparser writes
 * the headers back in front of the rest of the packet.
 *
 * Versions.  UBPF_MODEL_VERSION (a yyyymmdd number) selects the
 * declaration set.  A program may #define it before including this file;
 * otherwise it is 20200515, the surface with `standard_metadata`: the
 * parser and the pipeline get a third/fourth `inout standard_metadata`
 * parameter, and the program chooses what happens to the packet through
 * its `output_action`.  With 20200304 or any earlier value the older
 * surface is declared: no standard_metadata, no ubpf_action, and blocks
 * with one parameter fewer.
 *
 * The names, parameter lists and directions below follow the ones that
 * existing uBPF programs are written against, so those programs build
 * unchanged; the comments are this project's own.
 */

/* p4c's include guard name; JANUS_UBPF_MODEL_P4 is this project's older
 * name, kept. */
#ifndef _UBPF_MODEL_P4_
#define _UBPF_MODEL_P4_
#define JANUS_UBPF_MODEL_P4

#ifndef UBPF_MODEL_VERSION
#define UBPF_MODEL_VERSION 20200515
#endif

#include <core.p4>

/* The version in force, visible to P4 code (and to back ends) as a
 * constant. */
const bit<32> __ubpf_model_version = UBPF_MODEL_VERSION;

#if UBPF_MODEL_VERSION >= 20200515
/*
 * What the switch is asked to do with the packet once the program is
 * done: the value of standard_metadata.output_action.
 */
enum ubpf_action {
    ABORT,    // give up on the packet (an error)
    DROP,     // discard it
    PASS,     // let the switch go on with it as it would without the program
    REDIRECT  // send it out of standard_metadata.output_port
}

/*
 * Per-packet metadata shared with the switch.  The switch fills in
 * input_port and packet_length; the other fields are the program's
 * requests, read by the switch after the deparser.
 */
struct standard_metadata {
    bit<32>     input_port;    // port the packet came in on
    bit<32>     packet_length; // packet size in bytes
    ubpf_action output_action; // what to do with the packet, see ubpf_action
    bit<32>     output_port;   // where to send it when output_action is REDIRECT
    bool        clone;         // true: also send a copy of the packet ...
    bit<32>     clone_port;    // ... out of this port
}
#endif

/*
 * Pass / drop verdict returned by the program.  It starts as "pass"; these
 * two set it, and the last call wins.  The verdict is kept by the target,
 * not in any P4-visible variable.  Call them from the pipeline control.
 */
extern void mark_to_drop();
extern void mark_to_pass();

/*
 * An array of `size` values of type T, kept in a BPF map, indexed by values
 * of type S.  Both T and S may be bit<W> types or structs.  A cell never
 * written reads as whatever the control plane put there; the model has no
 * initial value, so the control plane initialises registers.
 */
extern Register<T, S> {
    Register(bit<32> size);
    // The value stored at `index`.
    T read(in S index);
    // Store `value` at `index`.
    void write(in S index, in T value);
}

/* The current time, in nanoseconds. */
extern bit<48> ubpf_time_get_ns();

/* Cut the outgoing packet down to its first `len` bytes. */
extern void truncate(in bit<32> len);

/* Hash algorithms the target offers to hash(). */
enum HashAlgorithm {
    lookup3 // Bob Jenkins' lookup3
}

/*
 * Hash `data` with `algo` into the 32-bit `result`.  `data` is normally a
 * list of bit<W>/int<W> fields, e.g. { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr };
 * the target accepts at most 64 bits of data in total.
 */
extern void hash<D>(out bit<32> result, in HashAlgorithm algo, in D data);

/*
 * Incremental update of a 16-bit one's-complement (Internet) checksum
 * (RFC 1624) when one field it covers changes from `old` to `new`; the
 * result is the new checksum.  csum_replace2 is for 16-bit fields,
 * csum_replace4 for 32-bit ones (e.g. an IPv4 address).
 */
extern bit<16> csum_replace2(in bit<16> csum, in bit<16> old, in bit<16> new);
extern bit<16> csum_replace4(in bit<16> csum, in bit<32> old, in bit<32> new);

/*
 * The programmable blocks.  H is the headers struct (its members headers,
 * header stacks or header unions), M a struct of the program's own
 * metadata.  The deparser emits the headers that are to precede the
 * unparsed rest of the packet.
 */
#if UBPF_MODEL_VERSION >= 20200515
parser parse<H, M>(packet_in packet, out H headers, inout M meta,
                   inout standard_metadata std);
control pipeline<H, M>(inout H headers, inout M meta,
                       inout standard_metadata std);
#else
parser parse<H, M>(packet_in packet, out H headers, inout M meta);
control pipeline<H, M>(inout H headers, inout M meta);
#endif
control deparser<H>(packet_out b, in H headers);

/*
 * The top-level package.  A program ends with, e.g.,
 *     ubpf(MyParser(), MyPipe(), MyDeparser()) main;
 */
package ubpf<H, M>(parse<H, M> prs, pipeline<H, M> p, deparser<H> dprs);

#endif /* _UBPF_MODEL_P4_ */
