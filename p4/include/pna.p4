/*
 * pna.p4 -- the Janus description of the Portable NIC Architecture.
 *
 * Part of the Janus P4_16 toolchain and written for it, from the P4.org
 * "P4 Portable NIC Architecture (PNA)" specification, working draft v0.7.
 * PNA models a NIC whose packets -- from the network towards the host(s)
 * and from the host(s) towards the network -- go through one shared
 * pipeline: a main parser, a main control and a main deparser, followed by
 * optional inline accelerators.  The main control decides, through extern
 * functions, whether a packet is sent to a network port or a host vport,
 * dropped, recirculated or mirrored, and can add entries to "add-on-miss"
 * tables from the data plane.
 *
 * Compatibility notes (see also docs/architectures.md):
 *  - PNA_NIC keeps the pre_control argument (and the pna_pre_* metadata)
 *    between main_parser and main_control, as existing PNA programs and
 *    toolchains still pass one, although v0.7 describes only the three
 *    main blocks.  A pre control that does nothing is enough.
 *  - The input metadata keeps `direction`, `pass` and `loopedback`, which
 *    existing programs read, and also has v0.7's `recirculated`.
 *  - The main deparser receives the headers as `in`, as in v0.7.  Later
 *    revisions of PNA make them `inout` (so the deparser can write
 *    checksums); define JANUS_PNA_DEPARSER_INOUT before including this
 *    file to get that signature.
 *  - Widths are those of the common software NIC targets: ports 32 bits,
 *    mirror sessions 16, mirror slots 8, timestamps 64.
 */

/* The include guard is p4c's name for pna.p4's (and dpdk/pna.p4's, which
 * this file also serves as); _PORTABLE_NIC_ARCHITECTURE_P4_, the inner
 * guard of some PNA variants, and JANUS_PNA_P4, this project's older
 * name, are defined too. */
#ifndef __PNA_P4__
#define __PNA_P4__
#define _PORTABLE_NIC_ARCHITECTURE_P4_
#define JANUS_PNA_P4

#include <core.p4>

/* ------------------------------------------------------------------------
 * Match kinds, the same three that PSA adds.
 * --------------------------------------------------------------------- */
match_kind {
    range,    // key in an interval lo .. hi; entries need a priority
    selector, // key fields hashed by an ActionSelector to pick a member
    optional  // one exact value, or "don't care" for the whole field
}

/* ------------------------------------------------------------------------
 * Target-dependent numeric types.  As in PSA, each comes as a bit<W>
 * typedef (<Name>Uint_t) for arithmetic, a distinct `type` (<Name>_t) that
 * P4Runtime can recognise and translate, and a header-sized, target-
 * independent variant (<Name>InHeader_t).  Cast between <Name>_t and
 * <Name>Uint_t to compute with a value.
 * --------------------------------------------------------------------- */
typedef bit<32> PortIdUint_t;
typedef bit<32> InterfaceIdUint_t;
typedef bit<32> MulticastGroupUint_t;
typedef bit<16> MirrorSessionIdUint_t;
typedef bit<8>  MirrorSlotIdUint_t;
typedef bit<8>  ClassOfServiceUint_t;
typedef bit<16> PacketLengthUint_t;
typedef bit<16> MulticastInstanceUint_t;
typedef bit<64> TimestampUint_t;
typedef bit<32> FlowIdUint_t;
typedef bit<8>  ExpireTimeProfileIdUint_t;
typedef bit<3>  PassNumberUint_t;
typedef bit<32> SecurityAssocIdUint_t;

@p4runtime_translation("p4.org/pna/v1/PortId_t", 32)
type PortIdUint_t              PortId_t;              // network port or host vport
@p4runtime_translation("p4.org/pna/v1/InterfaceId_t", 32)
type InterfaceIdUint_t         InterfaceId_t;         // an interface of the NIC
@p4runtime_translation("p4.org/pna/v1/MulticastGroup_t", 32)
type MulticastGroupUint_t      MulticastGroup_t;
@p4runtime_translation("p4.org/pna/v1/MirrorSessionId_t", 16)
type MirrorSessionIdUint_t     MirrorSessionId_t;     // configured by the control plane
@p4runtime_translation("p4.org/pna/v1/MirrorSlotId_t", 8)
type MirrorSlotIdUint_t        MirrorSlotId_t;        // 0..3 at least
@p4runtime_translation("p4.org/pna/v1/ClassOfService_t", 8)
type ClassOfServiceUint_t      ClassOfService_t;
@p4runtime_translation("p4.org/pna/v1/PacketLength_t", 16)
type PacketLengthUint_t        PacketLength_t;
@p4runtime_translation("p4.org/pna/v1/MulticastInstance_t", 16)
type MulticastInstanceUint_t   MulticastInstance_t;
@p4runtime_translation("p4.org/pna/v1/Timestamp_t", 64)
type TimestampUint_t           Timestamp_t;
@p4runtime_translation("p4.org/pna/v1/FlowId_t", 32)
type FlowIdUint_t              FlowId_t;              // from allocate_flow_id()
@p4runtime_translation("p4.org/pna/v1/ExpireTimeProfileId_t", 8)
type ExpireTimeProfileIdUint_t ExpireTimeProfileId_t; // an idle-time profile
@p4runtime_translation("p4.org/pna/v1/PassNumber_t", 8)
type PassNumberUint_t          PassNumber_t;          // which pass (recirculation)
@p4runtime_translation("p4.org/pna/v1/SecurityAssocId_t", 32)
type SecurityAssocIdUint_t     SecurityAssocId_t;     // an IPsec security association

/* A parser error is the language's own `error` type. */
typedef error ParserError_t;

/* The port of the NIC's control CPU. */
const PortId_t PNA_PORT_CPU = (PortId_t) 0xfffffffd;
/* The mirror session that sends copies to the CPU port (as PSA's
 * PSA_CLONE_SESSION_TO_CPU). */
const MirrorSessionId_t PNA_MIRROR_SESSION_TO_CPU = (MirrorSessionId_t) 16w0;

/* Header-sized variants: fixed widths, multiples of 8 bits. */
typedef bit<32> PortIdInHeaderUint_t;
typedef bit<32> InterfaceIdInHeaderUint_t;
typedef bit<32> MulticastGroupInHeaderUint_t;
typedef bit<16> MirrorSessionIdInHeaderUint_t;
typedef bit<8>  MirrorSlotIdInHeaderUint_t;
typedef bit<8>  ClassOfServiceInHeaderUint_t;
typedef bit<16> PacketLengthInHeaderUint_t;
typedef bit<16> MulticastInstanceInHeaderUint_t;
typedef bit<64> TimestampInHeaderUint_t;
typedef bit<32> FlowIdInHeaderUint_t;
typedef bit<8>  ExpireTimeProfileIdInHeaderUint_t;
typedef bit<8>  PassNumberInHeaderUint_t;

@p4runtime_translation("p4.org/pna/v1/PortIdInHeader_t", 32)
type PortIdInHeaderUint_t              PortIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/InterfaceIdInHeader_t", 32)
type InterfaceIdInHeaderUint_t         InterfaceIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/MulticastGroupInHeader_t", 32)
type MulticastGroupInHeaderUint_t      MulticastGroupInHeader_t;
@p4runtime_translation("p4.org/pna/v1/MirrorSessionIdInHeader_t", 16)
type MirrorSessionIdInHeaderUint_t     MirrorSessionIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/MirrorSlotIdInHeader_t", 8)
type MirrorSlotIdInHeaderUint_t        MirrorSlotIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/ClassOfServiceInHeader_t", 8)
type ClassOfServiceInHeaderUint_t      ClassOfServiceInHeader_t;
@p4runtime_translation("p4.org/pna/v1/PacketLengthInHeader_t", 16)
type PacketLengthInHeaderUint_t        PacketLengthInHeader_t;
@p4runtime_translation("p4.org/pna/v1/MulticastInstanceInHeader_t", 16)
type MulticastInstanceInHeaderUint_t   MulticastInstanceInHeader_t;
@p4runtime_translation("p4.org/pna/v1/TimestampInHeader_t", 64)
type TimestampInHeaderUint_t           TimestampInHeader_t;
@p4runtime_translation("p4.org/pna/v1/FlowIdInHeader_t", 32)
type FlowIdInHeaderUint_t              FlowIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/ExpireTimeProfileIdInHeader_t", 8)
type ExpireTimeProfileIdInHeaderUint_t ExpireTimeProfileIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/PassNumberInHeader_t", 8)
type PassNumberInHeaderUint_t          PassNumberInHeader_t;

/*
 * Conversions between the PNA types used in metadata and their
 * fixed-width forms used in headers sent to and from the controller:
 * pna_<T>_int_to_header and pna_<T>_header_to_int. Each goes
 * through the plain-bit typedefs, so the widths may differ.
 */
PortIdInHeader_t pna_PortId_int_to_header(in PortId_t x) {
    return (PortIdInHeader_t) (PortIdInHeaderUint_t) (PortIdUint_t) x;
}
PortId_t pna_PortId_header_to_int(in PortIdInHeader_t x) {
    return (PortId_t) (PortIdUint_t) (PortIdInHeaderUint_t) x;
}
InterfaceIdInHeader_t pna_InterfaceId_int_to_header(in InterfaceId_t x) {
    return (InterfaceIdInHeader_t) (InterfaceIdInHeaderUint_t) (InterfaceIdUint_t) x;
}
InterfaceId_t pna_InterfaceId_header_to_int(in InterfaceIdInHeader_t x) {
    return (InterfaceId_t) (InterfaceIdUint_t) (InterfaceIdInHeaderUint_t) x;
}
MulticastGroupInHeader_t pna_MulticastGroup_int_to_header(in MulticastGroup_t x) {
    return (MulticastGroupInHeader_t) (MulticastGroupInHeaderUint_t) (MulticastGroupUint_t) x;
}
MulticastGroup_t pna_MulticastGroup_header_to_int(in MulticastGroupInHeader_t x) {
    return (MulticastGroup_t) (MulticastGroupUint_t) (MulticastGroupInHeaderUint_t) x;
}
MirrorSessionIdInHeader_t pna_MirrorSessionId_int_to_header(in MirrorSessionId_t x) {
    return (MirrorSessionIdInHeader_t) (MirrorSessionIdInHeaderUint_t) (MirrorSessionIdUint_t) x;
}
MirrorSessionId_t pna_MirrorSessionId_header_to_int(in MirrorSessionIdInHeader_t x) {
    return (MirrorSessionId_t) (MirrorSessionIdUint_t) (MirrorSessionIdInHeaderUint_t) x;
}
MirrorSlotIdInHeader_t pna_MirrorSlotId_int_to_header(in MirrorSlotId_t x) {
    return (MirrorSlotIdInHeader_t) (MirrorSlotIdInHeaderUint_t) (MirrorSlotIdUint_t) x;
}
MirrorSlotId_t pna_MirrorSlotId_header_to_int(in MirrorSlotIdInHeader_t x) {
    return (MirrorSlotId_t) (MirrorSlotIdUint_t) (MirrorSlotIdInHeaderUint_t) x;
}
ClassOfServiceInHeader_t pna_ClassOfService_int_to_header(in ClassOfService_t x) {
    return (ClassOfServiceInHeader_t) (ClassOfServiceInHeaderUint_t) (ClassOfServiceUint_t) x;
}
ClassOfService_t pna_ClassOfService_header_to_int(in ClassOfServiceInHeader_t x) {
    return (ClassOfService_t) (ClassOfServiceUint_t) (ClassOfServiceInHeaderUint_t) x;
}
PacketLengthInHeader_t pna_PacketLength_int_to_header(in PacketLength_t x) {
    return (PacketLengthInHeader_t) (PacketLengthInHeaderUint_t) (PacketLengthUint_t) x;
}
PacketLength_t pna_PacketLength_header_to_int(in PacketLengthInHeader_t x) {
    return (PacketLength_t) (PacketLengthUint_t) (PacketLengthInHeaderUint_t) x;
}
MulticastInstanceInHeader_t pna_MulticastInstance_int_to_header(in MulticastInstance_t x) {
    return (MulticastInstanceInHeader_t) (MulticastInstanceInHeaderUint_t) (MulticastInstanceUint_t) x;
}
MulticastInstance_t pna_MulticastInstance_header_to_int(in MulticastInstanceInHeader_t x) {
    return (MulticastInstance_t) (MulticastInstanceUint_t) (MulticastInstanceInHeaderUint_t) x;
}
TimestampInHeader_t pna_Timestamp_int_to_header(in Timestamp_t x) {
    return (TimestampInHeader_t) (TimestampInHeaderUint_t) (TimestampUint_t) x;
}
Timestamp_t pna_Timestamp_header_to_int(in TimestampInHeader_t x) {
    return (Timestamp_t) (TimestampUint_t) (TimestampInHeaderUint_t) x;
}
FlowIdInHeader_t pna_FlowId_int_to_header(in FlowId_t x) {
    return (FlowIdInHeader_t) (FlowIdInHeaderUint_t) (FlowIdUint_t) x;
}
FlowId_t pna_FlowId_header_to_int(in FlowIdInHeader_t x) {
    return (FlowId_t) (FlowIdUint_t) (FlowIdInHeaderUint_t) x;
}
ExpireTimeProfileIdInHeader_t pna_ExpireTimeProfileId_int_to_header(in ExpireTimeProfileId_t x) {
    return (ExpireTimeProfileIdInHeader_t) (ExpireTimeProfileIdInHeaderUint_t) (ExpireTimeProfileIdUint_t) x;
}
ExpireTimeProfileId_t pna_ExpireTimeProfileId_header_to_int(in ExpireTimeProfileIdInHeader_t x) {
    return (ExpireTimeProfileId_t) (ExpireTimeProfileIdUint_t) (ExpireTimeProfileIdInHeaderUint_t) x;
}
PassNumberInHeader_t pna_PassNumber_int_to_header(in PassNumber_t x) {
    return (PassNumberInHeader_t) (PassNumberInHeaderUint_t) (PassNumberUint_t) x;
}
PassNumber_t pna_PassNumber_header_to_int(in PassNumberInHeader_t x) {
    return (PassNumber_t) (PassNumberUint_t) (PassNumberInHeaderUint_t) x;
}

/* ------------------------------------------------------------------------
 * Externs shared with PSA, with PNA-prefixed enums.  Their behaviour is
 * the one the PSA specification gives.
 * --------------------------------------------------------------------- */

enum PNA_HashAlgorithm_t {
    IDENTITY,
    CRC32,
    CRC32_CUSTOM,
    CRC16,
    CRC16_CUSTOM,
    ONES_COMPLEMENT16, // the 16-bit ones'-complement sum of IPv4/TCP/UDP
    TARGET_DEFAULT
}

/* A hash unit producing values of type O. */
extern Hash<O> {
    Hash(PNA_HashAlgorithm_t algo);
    @pure
    O get_hash<D>(in D data);
    // base + (hash of `data`) % max
    @pure
    O get_hash<T, D>(in T base, in D data, in T max);
}

/* A W-bit checksum over the data fed to it since the last clear(). */
extern Checksum<W> {
    Checksum(PNA_HashAlgorithm_t hash);
    void clear();
    void update<T>(in T data);
    @noSideEffects
    W get();
}

/* The incremental Internet checksum (RFC 1071 / RFC 1624); data must be a
 * whole number of 16-bit words. */
extern InternetChecksum {
    InternetChecksum();
    void clear();
    void add<T>(in T data);
    void subtract<T>(in T data);
    @noSideEffects
    bit<16> get();
    @noSideEffects
    bit<16> get_state();
    void set_state(in bit<16> checksum_state);
}

enum PNA_CounterType_t {
    PACKETS,
    BYTES,
    PACKETS_AND_BYTES
}

/* Indexed counters: `n_counters` cells of width W, index type S. */
@noWarn("unused")
extern Counter<W, S> {
    Counter(bit<32> n_counters, PNA_CounterType_t type);
    // `increment`, when given, is the number of bytes to add for a byte
    // counter (by default the packet's length).
    void count(in S index, @optional in bit<32> increment);
}

/* One counter per entry of the table that names it in pna_direct_counter. */
@noWarn("unused")
extern DirectCounter<W> {
    DirectCounter(PNA_CounterType_t type);
    void count(@optional in bit<32> increment);
}

enum PNA_MeterType_t {
    PACKETS,
    BYTES
}

enum PNA_MeterColor_t { RED, GREEN, YELLOW }

/* Indexed RFC 2698 meters. */
extern Meter<S> {
    Meter(bit<32> n_meters, PNA_MeterType_t type);
    // colour-aware: `color` is the packet's colour before metering
    PNA_MeterColor_t execute(in S index, in PNA_MeterColor_t color);
    // colour-blind
    PNA_MeterColor_t execute(in S index);
}

/* One meter per entry of the table that names it in pna_direct_meter. */
extern DirectMeter {
    DirectMeter(PNA_MeterType_t type);
    PNA_MeterColor_t execute(in PNA_MeterColor_t color);
    PNA_MeterColor_t execute();
}

/* `size` cells of type T, index type S, kept across packets. */
extern Register<T, S> {
    Register(bit<32> size);
    Register(bit<32> size, T initial_value);
    @noSideEffects
    T read(in S index);
    void write(in S index, in T value);
}

/* Uniform pseudo-random values in [min, max]. */
extern Random<T> {
    Random(T min, T max);
    T read();
}

/* Table implementations (pna_implementation property). */
extern ActionProfile {
    ActionProfile(bit<32> size);
}

extern ActionSelector {
    ActionSelector(PNA_HashAlgorithm_t algo, bit<32> size, bit<32> outputWidth);
}

/* Messages to the control plane, packed in the main deparser. */
extern Digest<T> {
    Digest();
    void pack(in T data);
}

/* ------------------------------------------------------------------------
 * Table properties.  PNA adds add_on_miss (bool), pna_direct_counter,
 * pna_direct_meter, pna_implementation, pna_empty_group_action and
 * pna_idle_timeout, whose value is one of these:
 * --------------------------------------------------------------------- */
enum PNA_IdleTimeout_t {
    NO_TIMEOUT,      // default: no idle time kept per entry
    NOTIFY_CONTROL,  // tell the control plane about idle entries
    AUTO_DELETE      // the data plane deletes idle entries itself
}

/* ------------------------------------------------------------------------
 * Intrinsic metadata.
 * --------------------------------------------------------------------- */

/* Which way a packet is travelling through the NIC. */
enum PNA_Direction_t {
    NET_TO_HOST,  // arrived from a network port
    HOST_TO_NET   // came from the host side (a vport)
}

/* Given to the pre control. */
struct pna_pre_input_metadata_t {
    PortId_t        input_port;
    ParserError_t   parser_error;
    PNA_Direction_t direction;
    PassNumber_t    pass;
    bool            loopedback;
}

/* Written by the pre control: whether, and from where, the inline IPsec
 * accelerator should decrypt the packet before the main control sees it. */
struct pna_pre_output_metadata_t {
    bool              decrypt;
    SecurityAssocId_t said;
    bit<16>           decrypt_start_offset;  // in bytes from the packet start
}

/* Given to the main parser. */
struct pna_main_parser_input_metadata_t {
    PNA_Direction_t direction;
    PassNumber_t    pass;          // 0 on the first pass, +1 per recirculation
    bool            loopedback;
    bool            recirculated;  // true when this pass is a recirculation
    PortId_t        input_port;    // network port (NET_TO_HOST) or vport
}

/* Given to the main control (read only). */
struct pna_main_input_metadata_t {
    PNA_Direction_t  direction;
    PassNumber_t     pass;
    bool             loopedback;
    bool             recirculated;
    Timestamp_t      timestamp;      // when the packet started this pass
    ParserError_t    parser_error;   // error.NoError if parsing succeeded
    ClassOfService_t class_of_service;
    PortId_t         input_port;
}

/* Written by the main control, read by the main deparser and the
 * architecture. */
struct pna_main_output_metadata_t {
    ClassOfService_t class_of_service;  // starts as 0
}

/* ------------------------------------------------------------------------
 * Forwarding.  These act on hidden per-packet state when the main control
 * ends; the last of drop_packet() / send_to_port() called wins.
 * --------------------------------------------------------------------- */

/* Do not send the packet anywhere. */
extern void drop_packet();

/* Send the packet to network port or vport `dest_port`. */
extern void send_to_port(in PortId_t dest_port);

/* Send the packet through the main pipeline again after the deparser
 * (and the inline accelerators) have run. */
extern void recirculate();

/* Request a copy of the packet, made by mirror session `mirror_session_id`
 * as configured by the control plane (destination, truncation, sampling,
 * pre- or post-modification contents).  Each slot (0..3 at least) holds at
 * most one request; a later call on the same slot replaces it.  Session 0
 * is reserved.  Independent of drop_packet() and send_to_port(). */
extern void mirror_packet(in MirrorSlotId_t mirror_slot_id,
                          in MirrorSessionId_t mirror_session_id);

/* Whether a port id names a network port, or a host vport. */
extern bool is_net_port(in PortId_t port);
extern bool is_host_port(in PortId_t port);

/* `n2h_value` for NET_TO_HOST packets, `h2n_value` for HOST_TO_NET ones.
 * Typically used on table keys so that both directions of a connection
 * look up the same entry. */
extern T SelectByDirection<T>(in PNA_Direction_t direction,
                              in T n2h_value,
                              in T h2n_value);

/* ------------------------------------------------------------------------
 * Add-on-miss tables and entry ageing.  A table with `add_on_miss = true`
 * may call add_entry() from its default (miss) action; the new entry has
 * the key just looked up, the hit action named `action_name` and the
 * parameters in `action_params` (a struct with one member per action
 * parameter, same names and types).
 * --------------------------------------------------------------------- */
typedef bit<8> AddEntryErrorStatus_t;
const AddEntryErrorStatus_t ADD_ENTRY_SUCCESS  = 0;  // the entry was added
const AddEntryErrorStatus_t ADD_ENTRY_NOT_DONE = 1;  // it was not (targets may
                                                     // report other reasons)

extern bool add_entry<T>(string action_name,
                                          in T action_params,
                                          in ExpireTimeProfileId_t expire_time_profile_id);

/* As add_entry, but only when `do_add_entry` is true; for targets that
 * handle `if` inside actions poorly. */
extern bool add_entry_if<T>(in bool do_add_entry,
                                             string action_name,
                                             in T action_params,
                                             in ExpireTimeProfileId_t expire_time_profile_id);

/* A fresh flow id, e.g. to store as an action parameter of a new entry. */
extern FlowId_t allocate_flow_id();

/* From a hit action: give the matched entry a new expire-time profile
 * (this also restarts its idle timer). */
extern void set_entry_expire_time(in ExpireTimeProfileId_t expire_time_profile_id);

/* Same, only when `do_set_expire_time` is true. */
extern void set_entry_expire_time_if(in bool do_set_expire_time,
                                     in ExpireTimeProfileId_t expire_time_profile_id);

/* From a hit action: restart the matched entry's idle timer. */
extern void restart_expire_timer();

/* From a hit action, without `if`: when update_aging_info is true, either
 * set the expire-time profile (update_expire_time true) or just restart
 * the timer; when it is false, leave the entry's ageing state alone. */
extern void update_expire_info(in bool update_aging_info,
                               in bool update_expire_time,
                               in ExpireTimeProfileId_t new_expire_time_profile_id);

/* ------------------------------------------------------------------------
 * The programmable blocks and the top-level package.  MH/MM are the main
 * header and user-metadata types, PH/PM those of the pre control.
 * --------------------------------------------------------------------- */

control PreControlT<PH, PM>(
    in    PH pre_hdr,
    inout PM pre_user_meta,
    in    pna_pre_input_metadata_t  istd,
    inout pna_pre_output_metadata_t ostd);

parser MainParserT<MH, MM>(
    packet_in pkt,
    out   MH main_hdr,
    inout MM main_user_meta,
    in    pna_main_parser_input_metadata_t istd);

control MainControlT<MH, MM>(
    inout MH main_hdr,
    inout MM main_user_meta,
    in    pna_main_input_metadata_t  istd,
    inout pna_main_output_metadata_t ostd);

#ifdef JANUS_PNA_DEPARSER_INOUT
control MainDeparserT<MH, MM>(
    packet_out pkt,
    inout MH main_hdr,
    in    MM main_user_meta,
    in    pna_main_output_metadata_t ostd);
#else
control MainDeparserT<MH, MM>(
    packet_out pkt,
    in    MH main_hdr,
    in    MM main_user_meta,
    in    pna_main_output_metadata_t ostd);
#endif

/* The NIC; a program instantiates it as `main`, e.g.
 *   PNA_NIC(MyParser(), MyPreControl(), MyControl(), MyDeparser()) main; */
package PNA_NIC<MH, MM, PH, PM>(
    MainParserT<MH, MM> main_parser,
    PreControlT<PH, PM> pre_control,
    MainControlT<MH, MM> main_control,
    MainDeparserT<MH, MM> main_deparser);

#endif /* __PNA_P4__ */
