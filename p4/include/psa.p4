/*
 * psa.p4 -- the Janus description of the Portable Switch Architecture.
 *
 * Part of the Janus P4_16 toolchain and written for it, from the P4.org
 * "P4_16 Portable Switch Architecture (PSA)" specification, version 1.2.
 * PSA models a switch with six P4-programmable blocks (ingress parser,
 * ingress control, ingress deparser, egress parser, egress control, egress
 * deparser) around two fixed blocks: the packet replication engine (PRE:
 * multicast groups and clone sessions) and the buffering and queueing
 * engine (BQE).
 *
 * The specification leaves the widths of the port, multicast group, clone
 * session, class-of-service, length, instance and timestamp types to each
 * target.  This file uses the widths of bmv2's psa_switch target, the
 * usual reference for software PSA programs, so that programs written for
 * it build unchanged: ports and multicast groups 32 bits, clone sessions 16,
 * class of service 8, packet lengths and egress instances 16, timestamps 64.
 * The names, parameter lists, directions and type parameters are those of
 * the specification, which existing PSA programs are written against.
 */

/* The include guard is p4c's name for psa.p4's; the same file serves as
 * bmv2/psa.p4 and dpdk/psa.p4, whose guard is __PSA_P4__, so that is
 * defined too, and JANUS_PSA_P4, this project's older name. */
#ifndef _PORTABLE_SWITCH_ARCHITECTURE_P4_
#define _PORTABLE_SWITCH_ARCHITECTURE_P4_
#define __PSA_P4__
#define JANUS_PSA_P4

/* p4c's psa.p4 declares its (example) core types under this macro and
 * defines it; programs may test it. */
#ifndef PSA_CORE_TYPES
#define PSA_CORE_TYPES
#endif

#include <core.p4>

/* ------------------------------------------------------------------------
 * Match kinds PSA adds to exact / ternary / lpm.
 * --------------------------------------------------------------------- */
match_kind {
    range,    // key lies in an interval lo .. hi; entries need a priority
    selector, // key fields hashed by an ActionSelector to pick a group member
    optional  // one exact value, or "don't care" for the whole field
}

/* ------------------------------------------------------------------------
 * Target-dependent numeric types.
 *
 * Each quantity comes in three flavours:
 *   <Name>Uint_t          a plain bit<W> typedef, for arithmetic;
 *   <Name>_t              a distinct `type` over it, which the compiler and
 *                         P4Runtime can recognise (and translate) wherever it
 *                         appears; convert with a cast to/from <Name>Uint_t;
 *   <Name>InHeader_t      a fixed, byte-multiple width that every target
 *                         can store in a packet header exchanged with the
 *                         controller (same pattern: Uint typedef + type).
 * ------------------------------------------------------------------------ */
typedef bit<32> PortIdUint_t;
typedef bit<32> MulticastGroupUint_t;
typedef bit<16> CloneSessionIdUint_t;
typedef bit<8>  ClassOfServiceUint_t;
typedef bit<16> PacketLengthUint_t;
typedef bit<16> EgressInstanceUint_t;
typedef bit<64> TimestampUint_t;

@p4runtime_translation("p4.org/psa/v1/PortId_t", 32)
type PortIdUint_t         PortId_t;          // a port of this device
@p4runtime_translation("p4.org/psa/v1/MulticastGroup_t", 32)
type MulticastGroupUint_t MulticastGroup_t;  // a PRE multicast group; 0 = none
@p4runtime_translation("p4.org/psa/v1/CloneSessionId_t", 16)
type CloneSessionIdUint_t CloneSessionId_t;  // a PRE clone session
@p4runtime_translation("p4.org/psa/v1/ClassOfService_t", 8)
type ClassOfServiceUint_t ClassOfService_t;  // a queueing class in the buffer
@p4runtime_translation("p4.org/psa/v1/PacketLength_t", 16)
type PacketLengthUint_t   PacketLength_t;    // a length in bytes
@p4runtime_translation("p4.org/psa/v1/EgressInstance_t", 16)
type EgressInstanceUint_t EgressInstance_t;  // which copy of a replicated packet
@p4runtime_translation("p4.org/psa/v1/Timestamp_t", 64)
type TimestampUint_t      Timestamp_t;       // a time; wraps around

/* A parser error is the language's own `error` type. */
typedef error ParserError_t;

/* Special ports and the pre-configured clone session (bmv2 psa_switch
 * numbering; compare ports with these names, never with raw numbers). */
const PortId_t PSA_PORT_RECIRCULATE = (PortId_t) 0xfffffffa; // back to ingress
const PortId_t PSA_PORT_CPU         = (PortId_t) 0xfffffffd; // to the control CPU

/* Clone session that exists from start-up: one copy to PSA_PORT_CPU,
 * instance 0, class of service 0, no truncation. */
const CloneSessionId_t PSA_CLONE_SESSION_TO_CPU = (CloneSessionId_t) 0;

/* Header-sized variants.  Their widths are fixed by the specification,
 * independent of the target, and all are multiples of 8; when a value of
 * a narrower type is widened into one of these, the extra high bits should
 * be 0. */
typedef bit<32> PortIdInHeaderUint_t;
typedef bit<32> MulticastGroupInHeaderUint_t;
typedef bit<16> CloneSessionIdInHeaderUint_t;
typedef bit<8>  ClassOfServiceInHeaderUint_t;
typedef bit<16> PacketLengthInHeaderUint_t;
typedef bit<16> EgressInstanceInHeaderUint_t;
typedef bit<64> TimestampInHeaderUint_t;

@p4runtime_translation("p4.org/psa/v1/PortIdInHeader_t", 32)
type PortIdInHeaderUint_t         PortIdInHeader_t;
@p4runtime_translation("p4.org/psa/v1/MulticastGroupInHeader_t", 32)
type MulticastGroupInHeaderUint_t MulticastGroupInHeader_t;
@p4runtime_translation("p4.org/psa/v1/CloneSessionIdInHeader_t", 16)
type CloneSessionIdInHeaderUint_t CloneSessionIdInHeader_t;
@p4runtime_translation("p4.org/psa/v1/ClassOfServiceInHeader_t", 8)
type ClassOfServiceInHeaderUint_t ClassOfServiceInHeader_t;
@p4runtime_translation("p4.org/psa/v1/PacketLengthInHeader_t", 16)
type PacketLengthInHeaderUint_t   PacketLengthInHeader_t;
@p4runtime_translation("p4.org/psa/v1/EgressInstanceInHeader_t", 16)
type EgressInstanceInHeaderUint_t EgressInstanceInHeader_t;
@p4runtime_translation("p4.org/psa/v1/TimestampInHeader_t", 64)
type TimestampInHeaderUint_t      TimestampInHeader_t;

/*
 * Conversions between the PSA types used in metadata and their
 * fixed-width forms used in headers sent to and from the controller:
 * psa_<T>_int_to_header and psa_<T>_header_to_int. Each goes
 * through the plain-bit typedefs, so the widths may differ.
 */
PortIdInHeader_t psa_PortId_int_to_header(in PortId_t x) {
    return (PortIdInHeader_t) (PortIdInHeaderUint_t) (PortIdUint_t) x;
}
PortId_t psa_PortId_header_to_int(in PortIdInHeader_t x) {
    return (PortId_t) (PortIdUint_t) (PortIdInHeaderUint_t) x;
}
MulticastGroupInHeader_t psa_MulticastGroup_int_to_header(in MulticastGroup_t x) {
    return (MulticastGroupInHeader_t) (MulticastGroupInHeaderUint_t) (MulticastGroupUint_t) x;
}
MulticastGroup_t psa_MulticastGroup_header_to_int(in MulticastGroupInHeader_t x) {
    return (MulticastGroup_t) (MulticastGroupUint_t) (MulticastGroupInHeaderUint_t) x;
}
CloneSessionIdInHeader_t psa_CloneSessionId_int_to_header(in CloneSessionId_t x) {
    return (CloneSessionIdInHeader_t) (CloneSessionIdInHeaderUint_t) (CloneSessionIdUint_t) x;
}
CloneSessionId_t psa_CloneSessionId_header_to_int(in CloneSessionIdInHeader_t x) {
    return (CloneSessionId_t) (CloneSessionIdUint_t) (CloneSessionIdInHeaderUint_t) x;
}
ClassOfServiceInHeader_t psa_ClassOfService_int_to_header(in ClassOfService_t x) {
    return (ClassOfServiceInHeader_t) (ClassOfServiceInHeaderUint_t) (ClassOfServiceUint_t) x;
}
ClassOfService_t psa_ClassOfService_header_to_int(in ClassOfServiceInHeader_t x) {
    return (ClassOfService_t) (ClassOfServiceUint_t) (ClassOfServiceInHeaderUint_t) x;
}
PacketLengthInHeader_t psa_PacketLength_int_to_header(in PacketLength_t x) {
    return (PacketLengthInHeader_t) (PacketLengthInHeaderUint_t) (PacketLengthUint_t) x;
}
PacketLength_t psa_PacketLength_header_to_int(in PacketLengthInHeader_t x) {
    return (PacketLength_t) (PacketLengthUint_t) (PacketLengthInHeaderUint_t) x;
}
EgressInstanceInHeader_t psa_EgressInstance_int_to_header(in EgressInstance_t x) {
    return (EgressInstanceInHeader_t) (EgressInstanceInHeaderUint_t) (EgressInstanceUint_t) x;
}
EgressInstance_t psa_EgressInstance_header_to_int(in EgressInstanceInHeader_t x) {
    return (EgressInstance_t) (EgressInstanceUint_t) (EgressInstanceInHeaderUint_t) x;
}
TimestampInHeader_t psa_Timestamp_int_to_header(in Timestamp_t x) {
    return (TimestampInHeader_t) (TimestampInHeaderUint_t) (TimestampUint_t) x;
}
Timestamp_t psa_Timestamp_header_to_int(in TimestampInHeader_t x) {
    return (Timestamp_t) (TimestampUint_t) (TimestampInHeaderUint_t) x;
}

/* Checks that a target may compile in (assert) or assume to hold (assume):
 * a false `check` is a program bug, not a packet property. */
extern void assert(in bool check);
extern void assume(in bool check);

/* ------------------------------------------------------------------------
 * Intrinsic metadata.
 * --------------------------------------------------------------------- */

/* How the packet now being processed got here. */
enum PSA_PacketPath_t {
    NORMAL,           // ingress: arrived from a port (or the CPU port)
    NORMAL_UNICAST,   // egress: ingress sent it to one egress port
    NORMAL_MULTICAST, // egress: one copy made by a multicast group
    CLONE_I2E,        // egress: copy made by a clone requested in ingress
    CLONE_E2E,        // egress: copy made by a clone requested in egress
    RESUBMIT,         // ingress: ingress asked to process the packet again
    RECIRCULATE       // ingress: came back after egress sent it to
                      // PSA_PORT_RECIRCULATE
}

/* Given to the ingress parser. */
struct psa_ingress_parser_input_metadata_t {
    PortId_t         ingress_port;
    PSA_PacketPath_t packet_path;
}

/* Given to the egress parser. */
struct psa_egress_parser_input_metadata_t {
    PortId_t         egress_port;
    PSA_PacketPath_t packet_path;
}

/* Given to the ingress control (read only). */
struct psa_ingress_input_metadata_t {
    PortId_t         ingress_port;
    PSA_PacketPath_t packet_path;
    Timestamp_t      ingress_timestamp; // when the ingress parser started
    ParserError_t    parser_error;      // error.NoError if parsing succeeded
}

/*
 * Written by the ingress control; read when ingress ends to decide what
 * happens next.  Values when Ingress starts: class_of_service 0, clone
 * false, drop TRUE, resubmit false, multicast_group 0; clone_session_id and
 * egress_port undefined.  Order of precedence at the end of ingress: a
 * clone (if requested) is always made; then drop, else resubmit, else
 * multicast (group != 0), else unicast to egress_port.
 */
struct psa_ingress_output_metadata_t {
    ClassOfService_t class_of_service;
    bool             clone;
    CloneSessionId_t clone_session_id;
    bool             drop;
    bool             resubmit;
    MulticastGroup_t multicast_group;
    PortId_t         egress_port;
}

/* Given to the egress control (read only). */
struct psa_egress_input_metadata_t {
    ClassOfService_t class_of_service;
    PortId_t         egress_port;       // fixed by ingress / the PRE
    PSA_PacketPath_t packet_path;
    EgressInstance_t instance;          // set per copy by the PRE
    Timestamp_t      egress_timestamp;  // when the egress parser started
    ParserError_t    parser_error;
}

/* Given to the egress deparser so it can tell a packet that will be
 * recirculated (egress_port == PSA_PORT_RECIRCULATE). */
struct psa_egress_deparser_input_metadata_t {
    PortId_t egress_port;
}

/*
 * Written by the egress control.  Values when Egress starts: clone false,
 * drop false, clone_session_id undefined.  Egress may drop the packet or
 * clone it, but cannot change its output port.
 */
struct psa_egress_output_metadata_t {
    bool             clone;
    CloneSessionId_t clone_session_id;
    bool             drop;
}

/* ------------------------------------------------------------------------
 * Packet-path helpers for the deparsers.  Each is true when the packet
 * leaving this deparser will take the named path, so that the deparser
 * fills in the matching `out` metadata parameter only when it is used.
 * --------------------------------------------------------------------- */

/* Ingress deparser: an ingress-to-egress clone will be made. */
extern bool psa_clone_i2e(in psa_ingress_output_metadata_t istd);
/* Ingress deparser: the packet will be resubmitted. */
extern bool psa_resubmit(in psa_ingress_output_metadata_t istd);
/* Ingress deparser: the packet goes on to the buffer as unicast or
 * multicast (not dropped, not resubmitted). */
extern bool psa_normal(in psa_ingress_output_metadata_t istd);
/* Egress deparser: an egress-to-egress clone will be made. */
extern bool psa_clone_e2e(in psa_egress_output_metadata_t istd);
/* Egress deparser: the packet will go back to ingress (not dropped, and
 * its egress port is PSA_PORT_RECIRCULATE). */
extern bool psa_recirculate(in psa_egress_output_metadata_t istd,
                            in psa_egress_deparser_input_metadata_t edstd);

/* ------------------------------------------------------------------------
 * Convenience actions on the output metadata.  They only set fields; what
 * happens to the packet depends on the fields' values when the control
 * ends.  Programs may equally assign the fields themselves.
 * --------------------------------------------------------------------- */

/* Ingress: one copy to `egress_port` (undoes an earlier drop or multicast;
 * leaves clone and resubmit requests alone). */
@noWarn("unused")
action send_to_port(inout psa_ingress_output_metadata_t meta,
                    in PortId_t egress_port) {
    meta.drop = false;
    meta.multicast_group = (MulticastGroup_t) 0;
    meta.egress_port = egress_port;
}

/* Ingress: replicate to the ports of `multicast_group`, as configured in
 * the PRE (undoes an earlier drop; clone and resubmit untouched). */
@noWarn("unused")
action multicast(inout psa_ingress_output_metadata_t meta,
                 in MulticastGroup_t multicast_group) {
    meta.drop = false;
    meta.multicast_group = multicast_group;
}

/* Ingress: send nothing on for normal egress processing.  A requested
 * clone is still made; a requested resubmit is not. */
@noWarn("unused")
action ingress_drop(inout psa_ingress_output_metadata_t meta) {
    meta.drop = true;
}

/* Egress: do not transmit (or recirculate) the packet.  A requested clone
 * is still made. */
@noWarn("unused")
action egress_drop(inout psa_egress_output_metadata_t meta) {
    meta.drop = true;
}

/* ------------------------------------------------------------------------
 * Table properties.  PSA adds psa_direct_counter, psa_direct_meter,
 * psa_implementation, psa_empty_group_action and psa_idle_timeout; the
 * last takes one of these values.
 * --------------------------------------------------------------------- */
enum PSA_IdleTimeout_t {
    NO_TIMEOUT,     // default: no per-entry idle time is kept
    NOTIFY_CONTROL  // tell the control plane about entries idle too long
}

/* ------------------------------------------------------------------------
 * Hashes and checksums.
 * --------------------------------------------------------------------- */
enum PSA_HashAlgorithm_t {
    IDENTITY,          // the input bits themselves
    CRC32,
    CRC32_CUSTOM,      // CRC-32 with control-plane-chosen parameters
    CRC16,
    CRC16_CUSTOM,      // CRC-16 with control-plane-chosen parameters
    ONES_COMPLEMENT16, // the 16-bit ones'-complement sum of IPv4/TCP/UDP
    TARGET_DEFAULT     // whatever the target prefers
}

/* A hash unit producing values of type O. */
extern Hash<O> {
    Hash(PSA_HashAlgorithm_t algo);
    // The hash of `data`.
    @pure
    O get_hash<D>(in D data);
    // base + (hash of `data`) % max.  Portable programs keep `max` a
    // small power of two.
    @pure
    O get_hash<T, D>(in T base, in D data, in T max);
}

/* A checksum unit of width W using any hash algorithm.  Its state starts
 * cleared each time the enclosing parser or control runs. */
extern Checksum<W> {
    Checksum(PSA_HashAlgorithm_t hash);
    // Forget everything added so far.
    void clear();
    // Feed `data` into the checksum.
    void update<T>(in T data);
    // The checksum of the data fed in since the last clear().
    @noSideEffects
    W get();
}

/* The Internet (RFC 1071 / RFC 1624) checksum, with incremental update:
 * data can be removed again with subtract().  Arguments must be a whole
 * number of 16-bit words.  State starts cleared each time the enclosing
 * parser or control runs. */
extern InternetChecksum {
    InternetChecksum();
    void clear();
    // Add `data` to the running ones'-complement sum.
    void add<T>(in T data);
    // Take `data` back out of the running sum.
    void subtract<T>(in T data);
    // The checksum: the complement of the running sum.
    @noSideEffects
    bit<16> get();
    // The running sum itself, for a later set_state().
    @noSideEffects
    bit<16> get_state();
    // Replace the running sum by one saved with get_state().
    void set_state(in bit<16> checksum_state);
}

/* ------------------------------------------------------------------------
 * Counters.  The data plane only adds to them; the control plane reads
 * them.
 * --------------------------------------------------------------------- */
enum PSA_CounterType_t {
    PACKETS,
    BYTES,
    PACKETS_AND_BYTES
}

/* `n_counters` counters of width W, selected by an index of type S.  An
 * index out of range updates nothing. */
@noWarn("unused")
extern Counter<W, S> {
    Counter(bit<32> n_counters, PSA_CounterType_t type);
    void count(in S index);
}

/* One counter per entry of the single table that names this instance in
 * its psa_direct_counter property; count() may only be called from that
 * table's actions and updates the matched entry's counter. */
@noWarn("unused")
extern DirectCounter<W> {
    DirectCounter(PSA_CounterType_t type);
    void count();
}

/* ------------------------------------------------------------------------
 * Meters (RFC 2698 two-rate three-colour markers).
 * --------------------------------------------------------------------- */
enum PSA_MeterType_t {
    PACKETS,
    BYTES
}

enum PSA_MeterColor_t { RED, GREEN, YELLOW }

/* `n_meters` meters selected by an index of type S.  An unconfigured meter
 * returns GREEN; an out-of-range index returns an undefined colour. */
extern Meter<S> {
    Meter(bit<32> n_meters, PSA_MeterType_t type);
    // Colour-aware update: `color` is the packet's colour before metering.
    PSA_MeterColor_t execute(in S index, in PSA_MeterColor_t color);
    // Colour-blind update (as if the packet were GREEN).
    PSA_MeterColor_t execute(in S index);
}

/* One meter per entry of the table naming it in psa_direct_meter;
 * execute() only from that table's actions. */
extern DirectMeter {
    DirectMeter(PSA_MeterType_t type);
    PSA_MeterColor_t execute(in PSA_MeterColor_t color);
    PSA_MeterColor_t execute();
}

/* ------------------------------------------------------------------------
 * Registers: `size` cells of type T, indexed by S, read and written by the
 * data plane and the control plane.  Out-of-range writes do nothing;
 * out-of-range reads give an undefined value.
 * --------------------------------------------------------------------- */
extern Register<T, S> {
    // Cells start with undefined contents.
    Register(bit<32> size);
    // Every cell starts as `initial_value`.
    Register(bit<32> size, T initial_value);
    @noSideEffects
    T read(in S index);
    void write(in S index, in T value);
}

/* ------------------------------------------------------------------------
 * Uniform pseudo-random numbers in [min, max].  Portable programs make
 * (max - min + 1) a power of two.
 * --------------------------------------------------------------------- */
extern Random<T> {
    Random(T min, T max);
    T read();
}

/* ------------------------------------------------------------------------
 * Table implementations (psa_implementation property).
 * --------------------------------------------------------------------- */

/* Up to `size` shared action "members"; entries refer to a member instead
 * of holding action data.  Such tables have NoAction as default. */
extern ActionProfile {
    ActionProfile(bit<32> size);
}

/* An action profile with groups of members.  When an entry points at a
 * group, one member is chosen by hashing the table's `selector` key fields
 * with `algo` into an `outputWidth`-bit value. */
extern ActionSelector {
    ActionSelector(PSA_HashAlgorithm_t algo, bit<32> size, bit<32> outputWidth);
}

/* ------------------------------------------------------------------------
 * Digests: small messages from the ingress deparser to the control plane.
 * Each instance is one message stream; pack() at most once per packet.
 * --------------------------------------------------------------------- */
extern Digest<T> {
    Digest();
    void pack(in T data);
}

/* ------------------------------------------------------------------------
 * The fixed-function blocks.  Each is instantiated exactly once, as an
 * argument of PSA_Switch; they are configured only by the control plane.
 * --------------------------------------------------------------------- */
extern PacketReplicationEngine {
    PacketReplicationEngine();
}

extern BufferingQueueingEngine {
    BufferingQueueingEngine();
}

/* ------------------------------------------------------------------------
 * The programmable blocks and the packages that connect them.
 *
 * Type parameters: IH/EH the ingress/egress header structs, IM/EM the
 * ingress/egress user metadata, and one type for the metadata carried on
 * each packet path -- NM (normal, ingress to egress), CI2EM (ingress-to-
 * egress clone), CE2EM (egress-to-egress clone), RESUBM (resubmit) and
 * RECIRCM (recirculate).  A deparser assigns the `out` metadata of a path
 * only when that path is taken (see psa_clone_i2e() and friends); the next
 * parser receives it as the matching `in` parameter.
 * --------------------------------------------------------------------- */

parser IngressParser<H, M, RESUBM, RECIRCM>(
    packet_in buffer,
    out H parsed_hdr,
    inout M user_meta,
    in psa_ingress_parser_input_metadata_t istd,
    in RESUBM resubmit_meta,
    in RECIRCM recirculate_meta);

control Ingress<H, M>(
    inout H hdr,
    inout M user_meta,
    in    psa_ingress_input_metadata_t  istd,
    inout psa_ingress_output_metadata_t ostd);

control IngressDeparser<H, M, CI2EM, RESUBM, NM>(
    packet_out buffer,
    out CI2EM clone_i2e_meta,
    out RESUBM resubmit_meta,
    out NM normal_meta,
    inout H hdr,
    in M meta,
    in psa_ingress_output_metadata_t istd);

parser EgressParser<H, M, NM, CI2EM, CE2EM>(
    packet_in buffer,
    out H parsed_hdr,
    inout M user_meta,
    in psa_egress_parser_input_metadata_t istd,
    in NM normal_meta,
    in CI2EM clone_i2e_meta,
    in CE2EM clone_e2e_meta);

control Egress<H, M>(
    inout H hdr,
    inout M user_meta,
    in    psa_egress_input_metadata_t  istd,
    inout psa_egress_output_metadata_t ostd);

control EgressDeparser<H, M, CE2EM, RECIRCM>(
    packet_out buffer,
    out CE2EM clone_e2e_meta,
    out RECIRCM recirculate_meta,
    inout H hdr,
    in M meta,
    in psa_egress_output_metadata_t istd,
    in psa_egress_deparser_input_metadata_t edstd);

/* Ingress half of the switch: parser, control, deparser. */
package IngressPipeline<IH, IM, NM, CI2EM, RESUBM, RECIRCM>(
    IngressParser<IH, IM, RESUBM, RECIRCM> ip,
    Ingress<IH, IM> ig,
    IngressDeparser<IH, IM, CI2EM, RESUBM, NM> id);

/* Egress half of the switch: parser, control, deparser. */
package EgressPipeline<EH, EM, NM, CI2EM, CE2EM, RECIRCM>(
    EgressParser<EH, EM, NM, CI2EM, CE2EM> ep,
    Egress<EH, EM> eg,
    EgressDeparser<EH, EM, CE2EM, RECIRCM> ed);

/* The whole switch; a program instantiates it as `main`, e.g.
 *   PSA_Switch(ip, PacketReplicationEngine(), ep,
 *              BufferingQueueingEngine()) main;                      */
package PSA_Switch<IH, IM, EH, EM, NM, CI2EM, CE2EM, RESUBM, RECIRCM>(
    IngressPipeline<IH, IM, NM, CI2EM, RESUBM, RECIRCM> ingress,
    PacketReplicationEngine pre,
    EgressPipeline<EH, EM, NM, CI2EM, CE2EM, RECIRCM> egress,
    BufferingQueueingEngine bqe);

#endif /* _PORTABLE_SWITCH_ARCHITECTURE_P4_ */
