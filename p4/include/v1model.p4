/*
 * v1model.p4 -- the Janus description of the v1model architecture.
 *
 * Part of the Janus P4_16 toolchain and written for it, from the P4_16
 * specification and bmv2's simple_switch documentation.  v1model is the
 * architecture of bmv2's simple_switch: a parser, a checksum-verification
 * control, an ingress control, a packet buffer (queues, multicast, clone
 * sessions), an egress control, a checksum-update control and a deparser.
 * The names, parameter lists and directions below follow the ones that
 * existing v1model programs are written against, so those programs build
 * unchanged.
 *
 * Versions.  V1MODEL_VERSION (a yyyymmdd number) selects the declaration
 * set.  A program may #define it before including this file; otherwise it
 * is 20180101, as in other v1model toolchains, because most existing
 * programs are written against that surface: index always bit<32>,
 * register<T> with ONE type argument (written register<bit<32>>(N)),
 * counter/meter with no type parameter.  From 20200408 on, counter, meter
 * and register take their index type as a type parameter (counter<I>,
 * meter<I>, register<T, I>, written e.g. register<bit<32>, bit<32>>(N))
 * and the PortId_t typedef exists.  Other *_t names are deliberately not
 * declared: many programs declare them themselves.
 */

/* The include guard is p4c's name for it (`#ifndef _V1_MODEL_P4_` in a
 * program means "v1model.p4 not yet included"); JANUS_V1MODEL_P4 is this
 * project's older name, kept. */
#ifndef _V1_MODEL_P4_
#define _V1_MODEL_P4_
#define JANUS_V1MODEL_P4

#ifndef V1MODEL_VERSION
#define V1MODEL_VERSION 20180101
#endif

#include <core.p4>

/* Extra table match kinds that simple_switch supports. */
match_kind {
    range,    // lo .. hi on the key (entries carry a priority)
    optional, // either an exact value or "don't care" for the whole field
    selector  // key fields fed to an action_selector's hash, not looked up
}

/* The version in force, visible to P4 code as a constant. */
const bit<32> __v1model_version = V1MODEL_VERSION;

#if V1MODEL_VERSION >= 20200408
typedef bit<9>  PortId_t;         // a port number; 511 is the drop port
#endif

/*
 * The per-packet intrinsic metadata of simple_switch.  Every field is 0 when
 * a new packet arrives unless noted.  Times are microseconds on one clock
 * that starts at 0 when the switch starts.
 *
 * instance_type values used by simple_switch (NOT declared here, because
 * programs often declare these names themselves):
 *   PKT_INSTANCE_TYPE_NORMAL        = 0  new packet from a port / plain unicast
 *   PKT_INSTANCE_TYPE_INGRESS_CLONE = 1  copy made by an I2E clone
 *   PKT_INSTANCE_TYPE_EGRESS_CLONE  = 2  copy made by an E2E clone
 *   PKT_INSTANCE_TYPE_COALESCED     = 3  (not produced by simple_switch)
 *   PKT_INSTANCE_TYPE_RECIRC        = 4  packet coming back from recirculate
 *   PKT_INSTANCE_TYPE_REPLICATION   = 5  multicast copy
 *   PKT_INSTANCE_TYPE_RESUBMIT      = 6  packet coming back from resubmit
 */
struct standard_metadata_t {
    bit<9>  ingress_port;   // port the packet came in on (read only)
    bit<9>  egress_spec;    // set in ingress: output port; 511 means drop
    bit<9>  egress_port;    // in egress: port this copy leaves by (read only)
    bit<32> instance_type;  // what kind of packet this is (values above)
    bit<32> packet_length;  // packet size in bytes (0 in resubmitted/cloned
                            // copies unless preserved)
    bit<32> enq_timestamp;  // egress: when the packet entered its queue
    bit<19> enq_qdepth;     // egress: queue depth when it was enqueued
    bit<32> deq_timedelta;  // egress: time it spent queued
    bit<19> deq_qdepth;     // egress: queue depth when it was dequeued
    bit<48> ingress_global_timestamp; // when ingress processing began
    bit<48> egress_global_timestamp;  // egress: when egress processing began
    bit<16> mcast_grp;      // set in ingress: multicast group, 0 = unicast
    bit<16> egress_rid;     // egress: replication id of a multicast copy
    bit<1>  checksum_error; // 1 when a verify_checksum call found a mismatch
    error   parser_error;   // error the parser ended with (error.NoError if none)
    bit<3>  priority;       // queue priority for the packet buffer, 0..7
}

/* What a counter counts per cell. */
enum CounterType {
    packets,          // number of packets
    bytes,            // number of bytes
    packets_and_bytes // both
}

/* What a meter measures its rates in. */
enum MeterType {
    packets, // packet rate
    bytes    // byte rate
}

#if V1MODEL_VERSION >= 20200408
/*
 * An array of `size` counters, indexed from 0, readable and resettable by
 * the control plane only.
 */
extern counter<I> {
    counter(bit<32> size, CounterType type);
    // Add the current packet (and/or its length) to cell `index`.
    void count(in I index);
}
#else
extern counter {
    counter(bit<32> size, CounterType type);
    void count(in bit<32> index);
}
#endif

/*
 * One counter per entry of the table that names it with `counters = ...`.
 * simple_switch counts every hit on the table, whether the action calls
 * count() or not.
 */
extern direct_counter {
    direct_counter(CounterType type);
    // Count the current packet in the matched entry's counter.
    void count();
}

/* The colours a meter writes, as p4c's v1model.p4 names them. */
#define V1MODEL_METER_COLOR_GREEN  0
#define V1MODEL_METER_COLOR_YELLOW 1
#define V1MODEL_METER_COLOR_RED    2

#if V1MODEL_VERSION >= 20200408
/*
 * An array of `size` two-rate three-colour meters; rates are configured by
 * the control plane.
 */
extern meter<I> {
    meter(bit<32> size, MeterType type);
    // Run meter `index` on the current packet and write its colour to
    // `result`: 0 green, 1 yellow, 2 red.
    void execute_meter<T>(in I index, out T result);
}
#else
extern meter {
    meter(bit<32> size, MeterType type);
    void execute_meter<T>(in bit<32> index, out T result);
}
#endif

/* One meter per entry of the table that names it with `meters = ...`. */
extern direct_meter<T> {
    direct_meter(MeterType type);
    // Colour (0 green, 1 yellow, 2 red) of the current packet from the
    // matched entry's meter.  simple_switch meters every hit on the table.
    void read(out T result);
}

#if V1MODEL_VERSION >= 20200408
/*
 * An array of `size` values of type T kept across packets, readable and
 * writable both by P4 code and by the control plane.  Cells start at 0, or
 * at `initial_value`.  (Before version 20200408 this was register<T>, index
 * always bit<32>; see the #else branch.)
 */
extern register<T, I> {
    register(bit<32> size);
    register(bit<32> size, T initial_value);
    // Copy cell `index` into `result`.
    @noSideEffects
    void read(out T result, in I index);
    // Store `value` in cell `index`.
    void write(in I index, in T value);
}
#else
extern register<T> {
    register(bit<32> size);
    @noSideEffects
    void read(out T result, in bit<32> index);
    void write(in bit<32> index, in T value);
}
#endif

/*
 * A table implementation (`implementation = ...`) whose entries point at
 * shared action "members" instead of holding their action data; holds up
 * to `size` members.
 */
extern action_profile {
    action_profile(bit<32> size);
}

/* Write a random value between lo and hi, both included, into `result`. */
extern void random<T>(out T result, in T lo, in T hi);

/*
 * Send `data` (usually a struct of fields) to the control plane as a digest
 * (learning) message.  `receiver` identifies the digest stream; the message
 * is sent when ingress finishes.
 */
extern void digest<T>(in bit<32> receiver, in T data);

/* Hash functions available to hash(), action selectors and checksums. */
enum HashAlgorithm {
    crc32,        // standard CRC-32
    crc32_custom, // CRC-32 with parameters set by the control plane
    crc16,        // standard CRC-16
    crc16_custom, // CRC-16 with parameters set by the control plane
    random,       // a random value, ignoring the data
    identity,     // the data bits themselves, no hashing
    csum16,       // 16-bit ones'-complement checksum (as in IPv4/TCP/UDP)
    xor16         // xor of all 16-bit words of the data
}

/*
 * Old form of mark_to_drop that acts on the packet's standard metadata
 * without naming it.  Kept so that old programs still build.
 */
@deprecated("use mark_to_drop(standard_metadata) instead")
extern void mark_to_drop();

/*
 * Mark the packet to be dropped: sets egress_spec to the drop port (511).
 * In ingress the packet is then not queued (unless mcast_grp or resubmit
 * takes precedence); in egress the packet is not sent.  Later code may still
 * change egress_spec and undo it.
 */
@pure
extern void mark_to_drop(inout standard_metadata_t standard_metadata);

/*
 * Hash `data` with `algo` and write base + (hash % max) into `result`; when
 * max is 0, `result` gets `base`.
 */
@pure
extern void hash<O, T, D, M>(out O result, in HashAlgorithm algo, in T base, in D data, in M max);

/*
 * An action_profile whose members are grouped; a table hit on a group picks
 * one member by hashing the table's `selector` key fields with `algorithm`
 * into `outputWidth` bits.  Holds up to `size` members.
 */
extern action_selector {
    action_selector(HashAlgorithm algorithm, bit<32> size, bit<32> outputWidth);
}

/* Which pipeline a clone is taken from. */
enum CloneType {
    I2E, // from ingress: a copy of the packet as it entered ingress
    E2E  // from egress: a copy of the packet as the deparser produced it
}

/*
 * Legacy incremental checksum unit: returns the 16-bit ones'-complement
 * checksum of `data`.  New code uses verify_checksum / update_checksum.
 */
@deprecated("use verify_checksum/update_checksum instead")
extern Checksum16 {
    Checksum16();
    bit<16> get<D>(in D data);
}

/*
 * For the VerifyChecksum control.  When `condition` holds, compute `algo`
 * over `data` (a struct or tuple of fields) and compare with `checksum`; on
 * a mismatch set standard_metadata.checksum_error to 1.  The packet is not
 * dropped automatically.
 */
extern void verify_checksum<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);

/* For ComputeChecksum: if `condition`, store `algo` over `data` in `checksum`. */
@pure
extern void update_checksum<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

/*
 * As verify_checksum, but the checksum also covers the packet payload
 * (every byte after the headers the parser extracted), as TCP/UDP need.
 */
extern void verify_checksum_with_payload<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);

/* As update_checksum, but the checksum also covers the packet payload. */
@noSideEffects
extern void update_checksum_with_payload<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

/*
 * Ingress only: when ingress ends, run ingress again on the original packet
 * (instance_type RESUBMIT).  User metadata fields annotated
 * @field_list(index) keep their final values; the rest start over.
 */
extern void resubmit_preserving_field_list(bit<8> index);

/*
 * Egress only: when egress ends, send the deparsed packet back to the
 * parser and ingress (instance_type RECIRC), keeping user metadata fields
 * annotated @field_list(index).
 */
extern void recirculate_preserving_field_list(bit<8> index);

/*
 * Make a copy of the packet (I2E from ingress, E2E from egress) for clone
 * session `session`; the control plane maps the session to an egress port.
 * The copy starts egress with instance_type INGRESS_CLONE / EGRESS_CLONE and
 * keeps user metadata fields annotated @field_list(data).
 */
extern void clone_preserving_field_list(in CloneType type, in bit<32> session, bit<8> data);

/* Older resubmit: `data` lists the metadata fields to keep. */
extern void resubmit<T>(in T data);

/* Older recirculate: `data` lists the metadata fields to keep. */
extern void recirculate<T>(in T data);

/* Clone to `session` without keeping any user metadata. */
extern void clone(in CloneType type, in bit<32> session);

/* Older clone: `data` lists the metadata fields the copy keeps. */
extern void clone3<T>(in CloneType type, in bit<32> session, in T data);

/* Cut the outgoing packet down to at most `length` bytes when it is sent. */
extern void truncate(in bit<32> length);

/* Run-time check: simple_switch stops with an error if `check` is false. */
extern void assert(in bool check);

/* Assumption for verification tools; simple_switch treats it like assert. */
extern void assume(in bool check);

/* Print `msg` to the switch log. */
extern void log_msg(string msg);

/*
 * Print `msg` to the switch log, replacing each {} in it with the next
 * field of `data` (a struct or tuple).
 */
extern void log_msg<T>(string msg, in T data);

/*
 * The six programmable blocks of the pipeline, in execution order.  H is
 * the program's headers struct (headers, header unions and stacks only), M
 * its user metadata struct.
 */

/* Parses the packet into `parsedHdr`.  On reject the packet is NOT dropped:
 * ingress still runs, with standard_metadata.parser_error set. */
parser Parser<H, M>(packet_in b, out H parsedHdr, inout M meta,
                    inout standard_metadata_t standard_metadata);

/* Runs right after the parser; meant for verify_checksum calls. */
control VerifyChecksum<H, M>(inout H hdr, inout M meta);

/* Ingress match-action processing; chooses egress_spec / mcast_grp. */
control Ingress<H, M>(inout H hdr, inout M meta,
                      inout standard_metadata_t standard_metadata);

/* Egress match-action processing, once per copy leaving the buffer. */
control Egress<H, M>(inout H hdr, inout M meta,
                     inout standard_metadata_t standard_metadata);

/* Runs after egress; meant for update_checksum calls. */
control ComputeChecksum<H, M>(inout H hdr, inout M meta);

/* Writes the headers back out, in front of the unparsed payload. */
control Deparser<H>(packet_out b, in H hdr);

/* The top-level package; a program instantiates it as `main`. */
package V1Switch<H, M>(Parser<H, M> p,
                       VerifyChecksum<H, M> vr,
                       Ingress<H, M> ig,
                       Egress<H, M> eg,
                       ComputeChecksum<H, M> ck,
                       Deparser<H> dep);

#endif /* _V1_MODEL_P4_ */
