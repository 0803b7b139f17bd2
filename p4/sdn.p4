/*
 * sdn.p4 -- multi-tenant overlay for the Janus SmartNIC (v1model).
 *
 * The NIC sits between the host's virtual functions (VFs, one tenant each)
 * and two network uplinks.  Tenant frames from a VF are checked (right VF,
 * right source addresses, not aimed at the management network, within the
 * VF's rate), filtered by the tenant's security group, then bridged on the
 * tenant's MAC table or routed on the tenant's VRF.  A destination on this
 * NIC is reached directly (VF to VF); a remote one through a VXLAN tunnel
 * out of an uplink.  VXLAN from the uplinks is decapsulated, mapped from
 * VNI to tenant and goes through the same filtering and forwarding, but may
 * only end on a VF of that tenant.  Management traffic from the uplinks goes
 * to the CPU port only; ARP and IPv6 ND for a tenant's gateway are punted to
 * the CPU port with a packet_in header; frames from the CPU port carry a
 * packet_out header naming their output port.
 *
 * Ports and controller headers: include/janus_nic.p4.  Tables, what the
 * operator installs in them, drop reasons: docs/nic-model.md.
 */
#include <core.p4>
#include <v1model.p4>
#include "include/janus_nic.p4"

typedef bit<48>  mac_addr_t;
typedef bit<32>  ipv4_addr_t;
typedef bit<128> ipv6_addr_t;
typedef bit<16>  tenant_id_t;   // also the tenant's VRF id; 0 means "no tenant"
typedef bit<24>  vni_t;

const bit<16> ETH_TYPE_IPV4 = 0x0800;
const bit<16> ETH_TYPE_ARP  = 0x0806;
const bit<16> ETH_TYPE_VLAN = 0x8100;
const bit<16> ETH_TYPE_IPV6 = 0x86dd;
const bit<8>  PROTO_TCP     = 6;
const bit<8>  PROTO_UDP     = 17;
const bit<8>  PROTO_ICMPV6  = 58;
const bit<8>  ICMPV6_NEIGHBOR_SOLICIT = 135;
const bit<8>  ICMPV6_NEIGHBOR_ADVERT  = 136;
const bit<16> UDP_PORT_VXLAN = 4789;

/* Bytes the VXLAN encapsulation adds in front of the tenant frame. */
const bit<16> VXLAN_IPV4_UDP_VXLAN_BYTES = 20 + 8 + 8;
const bit<16> VXLAN_UDP_VXLAN_BYTES      = 8 + 8;
/* Outer UDP source ports are taken from 49152..65535 (RFC 7348). */
const bit<16> VXLAN_SPORT_BASE  = 49152;
const bit<32> VXLAN_SPORT_RANGE = 16384;

const bit<32> TENANT_COUNT = 4096;

/* Drop reasons: index of the `drops` counters (ingress and egress). */
const bit<8> DROP_BAD_CHECKSUM    = 1;   // bad IPv4 checksum
const bit<8> DROP_UNKNOWN_VF      = 2;   // unknown VF
const bit<8> DROP_SPOOFED_SOURCE  = 3;   // spoofed source
const bit<8> DROP_VF_TO_MGMT      = 4;   // VF to management network
const bit<8> DROP_VF_TO_CPU       = 5;   // VF to CPU port
const bit<8> DROP_METER_RED       = 6;   // over the VF's rate (meter RED)
const bit<8> DROP_NOT_OVERLAY     = 7;   // not overlay traffic
const bit<8> DROP_UNKNOWN_VNI     = 8;   // unknown VNI
const bit<8> DROP_SECURITY_GROUP  = 9;   // security group
const bit<8> DROP_L2_MISS         = 10;  // L2 miss (no MAC entry in the tenant)
const bit<8> DROP_NO_ROUTE        = 11;  // no route in the tenant's VRF
const bit<8> DROP_TTL_EXPIRED     = 12;  // TTL expired
const bit<8> DROP_IP_OPTIONS      = 13;  // IPv4 options
const bit<8> DROP_NO_TUNNEL       = 14;  // no tunnel
const bit<8> DROP_HAIRPIN         = 15;  // hairpin (uplink to uplink)
const bit<8> DROP_BAD_OUTPUT_PORT = 16;  // bad output port
const bit<8> DROP_BAD_PACKET_OUT  = 17;  // bad packet_out
const bit<8> DROP_TENANT_MISMATCH = 18;  // tenant mismatch (egress owner check)
const bit<8> DROP_NO_VTEP_SOURCE  = 19;  // no VTEP source
const bit<32> DROP_REASON_COUNT   = 32;

/* Meter colours written by execute_meter. */
const bit<2> METER_GREEN = 0;
const bit<2> METER_RED   = 2;

/* ------------------------------------------------------------------ */
/* Headers                                                             */
/* ------------------------------------------------------------------ */

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
}

header vlan_t {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
    bit<16> ether_type;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      diffserv;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header udp_t {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}

header vxlan_t {
    bit<8>  flags;      // 0x08: the VNI is valid
    bit<24> reserved;
    vni_t   vni;
    bit<8>  reserved2;
}

/* ARP for IPv4 over Ethernet. */
header arp_t {
    bit<16>     htype;
    bit<16>     ptype;
    bit<8>      hlen;
    bit<8>      plen;
    bit<16>     oper;
    mac_addr_t  sender_mac;
    ipv4_addr_t sender_ip;
    mac_addr_t  target_mac;
    ipv4_addr_t target_ip;
}

header ipv6_t {
    bit<4>      version;
    bit<8>      traffic_class;
    bit<20>     flow_label;
    bit<16>     payload_len;
    bit<8>      next_hdr;
    bit<8>      hop_limit;
    ipv6_addr_t src_addr;
    ipv6_addr_t dst_addr;
}

/* The two port numbers that start both TCP and UDP headers. */
header l4_ports_t {
    bit<16> src_port;
    bit<16> dst_port;
}

header icmpv6_t {
    bit<8>  type;
    bit<8>  code;
    bit<16> checksum;
}

/* Body of a neighbor solicitation or advertisement, up to the target. */
header nd_t {
    bit<32>     flags_reserved;
    ipv6_addr_t target;
}

/*
 * Deparse order.  outer_* and vxlan are the underlay (present on frames
 * from the uplinks until decapsulation, and added again on the way out);
 * the rest is the tenant frame.
 */
struct sdn_headers_t {
    nic_packet_in_t  packet_in;
    nic_packet_out_t packet_out;
    ethernet_t       outer_ethernet;
    vlan_t           outer_vlan;
    ipv4_t           outer_ipv4;
    udp_t            outer_udp;
    vxlan_t          vxlan;
    ethernet_t       ethernet;
    vlan_t           vlan;
    arp_t            arp;
    ipv4_t           ipv4;
    ipv6_t           ipv6;
    l4_ports_t       l4;
    icmpv6_t         icmpv6;
    nd_t             nd;
}

struct sdn_meta_t {
    /* Where the frame came from. */
    bool        from_uplink;
    bool        from_vf;
    bool        from_cpu;
    bit<16>     frame_len;      // length of the frame as received

    /* The tenant the frame belongs to. */
    tenant_id_t tenant;
    vni_t       vni;
    bool        has_gateway;
    mac_addr_t  gw_mac;
    ipv4_addr_t gw_ipv4;
    ipv6_addr_t gw_ipv6;

    /* TCP/UDP ports of the tenant packet; 0 when it has none. */
    bit<16>     l4_sport;
    bit<16>     l4_dport;

    ipv4_addr_t src_ipv4;       // IPv4 source or ARP sender, for anti-spoofing

    /* Management-network lookup inputs and result. */
    bool        check_mgmt_ipv4;
    ipv4_addr_t mgmt_ipv4;
    bool        check_mgmt_vlan;
    bit<12>     mgmt_vlan;
    bool        check_mgmt_vni;
    vni_t       mgmt_vni;
    bool        to_management;

    /* Decisions. */
    bit<2>      color;
    bit<8>      punt_reason;    // != 0: send to the CPU port with packet_in
    bit<8>      drop_reason;    // != 0: drop, counted under this reason
    bool        routed;         // TTL and MACs rewritten: inner checksum to redo
    nic_port_t  out_port;
    bool        encap;          // leaves through a VXLAN tunnel
    bit<16>     tunnel;
    ipv4_addr_t remote_vtep;
    mac_addr_t  underlay_mac;

    /* Egress. */
    tenant_id_t port_owner;
    bit<8>      egress_drop_reason;
    ipv4_addr_t flow_src;       // entropy inputs for the outer UDP source port
    ipv4_addr_t flow_dst;
    bit<8>      flow_proto;
    bit<16>     entropy_port;
}

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

parser SdnParser(packet_in packet,
                 out sdn_headers_t hdr,
                 inout sdn_meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        meta.frame_len = (bit<16>) sm.packet_length;
        transition select(sm.ingress_port) {
            NIC_CPU_PORT : parse_packet_out;
            NIC_UPLINK_0 : parse_outer_ethernet;
            NIC_UPLINK_1 : parse_outer_ethernet;
            default      : parse_ethernet;
        }
    }

    /* The CPU builds whole frames: only its packet_out header is read. */
    state parse_packet_out {
        packet.extract(hdr.packet_out);
        transition accept;
    }

    /* Underlay, on the uplinks. */
    state parse_outer_ethernet {
        packet.extract(hdr.outer_ethernet);
        transition select(hdr.outer_ethernet.ether_type) {
            ETH_TYPE_VLAN : parse_outer_vlan;
            ETH_TYPE_IPV4 : parse_outer_ipv4;
            default       : accept;
        }
    }

    state parse_outer_vlan {
        packet.extract(hdr.outer_vlan);
        transition select(hdr.outer_vlan.ether_type) {
            ETH_TYPE_IPV4 : parse_outer_ipv4;
            default       : accept;
        }
    }

    state parse_outer_ipv4 {
        packet.extract(hdr.outer_ipv4);
        transition select(hdr.outer_ipv4.ihl, hdr.outer_ipv4.frag_offset,
                          hdr.outer_ipv4.protocol) {
            (5, 0, PROTO_UDP) : parse_outer_udp;
            default           : accept;
        }
    }

    state parse_outer_udp {
        packet.extract(hdr.outer_udp);
        transition select(hdr.outer_udp.dst_port) {
            UDP_PORT_VXLAN : parse_vxlan;
            default        : accept;
        }
    }

    state parse_vxlan {
        packet.extract(hdr.vxlan);
        transition parse_ethernet;
    }

    /* The tenant frame (from a VF, or inside VXLAN).  A VXLAN header a VF
     * builds itself is not looked at: it is tenant payload. */
    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETH_TYPE_VLAN : parse_vlan;
            ETH_TYPE_ARP  : parse_arp;
            ETH_TYPE_IPV4 : parse_ipv4;
            ETH_TYPE_IPV6 : parse_ipv6;
            default       : accept;
        }
    }

    state parse_vlan {
        packet.extract(hdr.vlan);
        transition select(hdr.vlan.ether_type) {
            ETH_TYPE_ARP  : parse_arp;
            ETH_TYPE_IPV4 : parse_ipv4;
            ETH_TYPE_IPV6 : parse_ipv6;
            default       : accept;
        }
    }

    state parse_arp {
        packet.extract(hdr.arp);
        transition accept;
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (5, 0, PROTO_TCP) : parse_l4;
            (5, 0, PROTO_UDP) : parse_l4;
            default           : accept;
        }
    }

    state parse_ipv6 {
        packet.extract(hdr.ipv6);
        transition select(hdr.ipv6.next_hdr) {
            PROTO_TCP    : parse_l4;
            PROTO_UDP    : parse_l4;
            PROTO_ICMPV6 : parse_icmpv6;
            default      : accept;
        }
    }

    state parse_l4 {
        packet.extract(hdr.l4);
        meta.l4_sport = hdr.l4.src_port;
        meta.l4_dport = hdr.l4.dst_port;
        transition accept;
    }

    state parse_icmpv6 {
        packet.extract(hdr.icmpv6);
        transition select(hdr.icmpv6.type) {
            ICMPV6_NEIGHBOR_SOLICIT : parse_nd;
            ICMPV6_NEIGHBOR_ADVERT  : parse_nd;
            default                 : accept;
        }
    }

    state parse_nd {
        packet.extract(hdr.nd);
        transition accept;
    }
}

/* ------------------------------------------------------------------ */
/* Checksum verification: both IPv4 headers, when they have no options. */
/* ------------------------------------------------------------------ */

control SdnVerifyChecksum(inout sdn_headers_t hdr, inout sdn_meta_t meta) {
    apply {
        verify_checksum(hdr.outer_ipv4.isValid() && hdr.outer_ipv4.ihl == 5,
            { hdr.outer_ipv4.version, hdr.outer_ipv4.ihl, hdr.outer_ipv4.diffserv,
              hdr.outer_ipv4.total_len, hdr.outer_ipv4.identification,
              hdr.outer_ipv4.flags, hdr.outer_ipv4.frag_offset, hdr.outer_ipv4.ttl,
              hdr.outer_ipv4.protocol, hdr.outer_ipv4.src_addr, hdr.outer_ipv4.dst_addr },
            hdr.outer_ipv4.hdr_checksum, HashAlgorithm.csum16);
        verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == 5,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification,
              hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

/* ------------------------------------------------------------------ */
/* Ingress stages                                                      */
/* ------------------------------------------------------------------ */

/* Frames from the CPU port: strip packet_out, send where it says. */
control CpuPacketOut(inout sdn_headers_t hdr, inout sdn_meta_t meta) {
    apply {
        nic_port_t port = hdr.packet_out.egress_port;
        if (!hdr.packet_out.isValid() || port == NIC_CPU_PORT || port == NIC_DROP_PORT) {
            meta.drop_reason = DROP_BAD_PACKET_OUT;
        } else {
            meta.out_port = port;
        }
        hdr.packet_out.setInvalid();
    }
}

/*
 * Is the frame addressed to the management network?  The operator names
 * that network by IPv4 prefixes, VLAN ids and VNIs.  On an uplink the
 * underlay headers are looked at (outer VLAN, VXLAN VNI, outer IPv4
 * destination); on a VF the tenant frame (its VLAN tag, its IPv4 or ARP
 * target address) and the VNI the VF is assigned to.
 */
control ManagementNetwork(in sdn_headers_t hdr, inout sdn_meta_t meta) {
    action is_management() {
        meta.to_management = true;
    }

    table management_prefixes {
        key = { meta.mgmt_ipv4 : lpm; }
        actions = { is_management; NoAction; }
        default_action = NoAction();
    }

    table management_vlans {
        key = { meta.mgmt_vlan : exact; }
        actions = { is_management; NoAction; }
        default_action = NoAction();
    }

    table management_vnis {
        key = { meta.mgmt_vni : exact; }
        actions = { is_management; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (meta.from_uplink) {
            if (hdr.outer_vlan.isValid()) {
                meta.check_mgmt_vlan = true;
                meta.mgmt_vlan = hdr.outer_vlan.vid;
            }
            if (hdr.outer_ipv4.isValid()) {
                meta.check_mgmt_ipv4 = true;
                meta.mgmt_ipv4 = hdr.outer_ipv4.dst_addr;
            }
            if (hdr.vxlan.isValid()) {
                meta.check_mgmt_vni = true;
                meta.mgmt_vni = hdr.vxlan.vni;
            }
        } else {
            meta.check_mgmt_vni = true;
            meta.mgmt_vni = meta.vni;
            if (hdr.vlan.isValid()) {
                meta.check_mgmt_vlan = true;
                meta.mgmt_vlan = hdr.vlan.vid;
            }
            if (hdr.ipv4.isValid()) {
                meta.check_mgmt_ipv4 = true;
                meta.mgmt_ipv4 = hdr.ipv4.dst_addr;
            } else if (hdr.arp.isValid()) {
                meta.check_mgmt_ipv4 = true;
                meta.mgmt_ipv4 = hdr.arp.target_ip;
            }
        }
        if (meta.check_mgmt_vni) {
            management_vnis.apply();
        }
        if (meta.check_mgmt_vlan) {
            management_vlans.apply();
        }
        if (meta.check_mgmt_ipv4) {
            management_prefixes.apply();
        }
    }
}

/*
 * Frames from an uplink: management goes to the CPU; VXLAN to one of our
 * VTEP addresses is mapped to its tenant and decapsulated; the rest drops.
 */
control UplinkIngress(inout sdn_headers_t hdr, inout sdn_meta_t meta) {
    action local_vtep() { }

    action not_overlay() {
        meta.drop_reason = DROP_NOT_OVERLAY;
    }

    /* The NIC's own VTEP addresses. */
    table local_vteps {
        key = { hdr.outer_ipv4.dst_addr : exact; }
        actions = { local_vtep; not_overlay; }
        default_action = not_overlay();
    }

    action set_tenant(tenant_id_t tenant) {
        meta.tenant = tenant;
        meta.vni = hdr.vxlan.vni;
    }

    action unknown_vni() {
        meta.drop_reason = DROP_UNKNOWN_VNI;
    }

    table vni_tenants {
        key = { hdr.vxlan.vni : exact; }
        actions = { set_tenant; unknown_vni; }
        default_action = unknown_vni();
    }

    apply {
        if (meta.to_management) {
            meta.punt_reason = NIC_PUNT_MANAGEMENT;
        } else if (!hdr.vxlan.isValid()) {
            meta.drop_reason = DROP_NOT_OVERLAY;
        } else {
            local_vteps.apply();
            if (meta.drop_reason == 0) {
                vni_tenants.apply();
            }
            if (meta.drop_reason == 0) {
                hdr.outer_ethernet.setInvalid();
                hdr.outer_vlan.setInvalid();
                hdr.outer_ipv4.setInvalid();
                hdr.outer_udp.setInvalid();
                hdr.vxlan.setInvalid();
            }
        }
    }
}

/*
 * Frames from a VF, first step: the VF's tenant, and anti-spoofing of the
 * source MAC and IP addresses.
 */
control VfClassify(inout sdn_headers_t hdr,
                   inout sdn_meta_t meta,
                   in nic_port_t ingress_port) {
    action assign_vf(tenant_id_t tenant, vni_t vni) {
        meta.tenant = tenant;
        meta.vni = vni;
    }

    action unknown_vf() {
        meta.drop_reason = DROP_UNKNOWN_VF;
    }

    table vf_tenants {
        key = { ingress_port : exact; }
        actions = { assign_vf; unknown_vf; }
        default_action = unknown_vf();
    }

    action source_allowed() { }

    action spoofed_source() {
        meta.drop_reason = DROP_SPOOFED_SOURCE;
    }

    /* (VF, source MAC) pairs the VF may send with. */
    table vf_mac_sources {
        key = {
            ingress_port         : exact;
            hdr.ethernet.src_addr : exact;
        }
        actions = { source_allowed; spoofed_source; }
        default_action = spoofed_source();
    }

    /* (VF, IPv4 address) pairs: checked against the IPv4 source or the ARP
     * sender address. */
    table vf_ipv4_sources {
        key = {
            ingress_port : exact;
            meta.src_ipv4 : exact;
        }
        actions = { source_allowed; spoofed_source; }
        default_action = spoofed_source();
    }

    /* (VF, IPv6 source address) pairs. */
    table vf_ipv6_sources {
        key = {
            ingress_port      : exact;
            hdr.ipv6.src_addr : exact;
        }
        actions = { source_allowed; spoofed_source; }
        default_action = spoofed_source();
    }

    apply {
        vf_tenants.apply();
        if (meta.drop_reason == 0) {
            vf_mac_sources.apply();
        }
        if (meta.drop_reason == 0 && hdr.arp.isValid()
                && hdr.arp.sender_mac != hdr.ethernet.src_addr) {
            meta.drop_reason = DROP_SPOOFED_SOURCE;
        }
        if (meta.drop_reason == 0 && (hdr.ipv4.isValid() || hdr.arp.isValid())) {
            if (hdr.ipv4.isValid()) {
                meta.src_ipv4 = hdr.ipv4.src_addr;
            } else {
                meta.src_ipv4 = hdr.arp.sender_ip;
            }
            vf_ipv4_sources.apply();
        }
        if (meta.drop_reason == 0 && hdr.ipv6.isValid()) {
            vf_ipv6_sources.apply();
        }
    }
}

/*
 * Frames from a VF, second step (after the management lookup): nothing to
 * the management network, and the VF's rate limit.
 */
control VfPolice(inout sdn_meta_t meta, in nic_port_t ingress_port) {
    /* Per-VF byte-rate meters, indexed by VF port number. */
    meter(NIC_PORT_COUNT, MeterType.bytes) rate_limits;

    apply {
        if (meta.to_management) {
            meta.drop_reason = DROP_VF_TO_MGMT;
        } else {
            rate_limits.execute_meter((bit<32>) ingress_port, meta.color);
            if (meta.color == METER_RED) {
                meta.drop_reason = DROP_METER_RED;
            }
        }
    }
}

/*
 * The tenant's gateway addresses; ARP and neighbor discovery from a VF
 * aimed at the gateway are punted to the CPU, which answers for it.
 */
control TenantGateway(in sdn_headers_t hdr, inout sdn_meta_t meta) {
    action set_gateway(mac_addr_t mac, ipv4_addr_t ipv4, ipv6_addr_t ipv6) {
        meta.has_gateway = true;
        meta.gw_mac = mac;
        meta.gw_ipv4 = ipv4;
        meta.gw_ipv6 = ipv6;
    }

    table tenant_gateways {
        key = { meta.tenant : exact; }
        actions = { set_gateway; NoAction; }
        default_action = NoAction();
    }

    apply {
        tenant_gateways.apply();
        if (meta.has_gateway && meta.from_vf) {
            if (hdr.arp.isValid() && hdr.arp.target_ip == meta.gw_ipv4) {
                meta.punt_reason = NIC_PUNT_ARP_GATEWAY;
            } else if (hdr.nd.isValid()
                       && (hdr.nd.target == meta.gw_ipv6
                           || hdr.ipv6.dst_addr == meta.gw_ipv6)) {
                meta.punt_reason = NIC_PUNT_ND_GATEWAY;
            }
        }
    }
}

/*
 * Security groups: a ternary ACL per tenant over the IPv4 5-tuple.  The
 * largest priority wins; a miss permits, so a tenant that wants "deny by
 * default" gets a lowest-priority entry that denies everything.  Port
 * ranges are written as value/mask pairs (the controller splits a range
 * into aligned blocks).
 */
control SecurityGroups(in sdn_headers_t hdr, inout sdn_meta_t meta) {
    action permit() { }

    action deny() {
        meta.drop_reason = DROP_SECURITY_GROUP;
    }

    /* Tenants manage their own rules over P4Runtime (role tenant:<id>):
     * only entries whose meta.tenant is their id. */
    @janus_tenant_key("meta.tenant")
    table security_group_rules {
        key = {
            meta.tenant       : exact;
            hdr.ipv4.src_addr : ternary;
            hdr.ipv4.dst_addr : ternary;
            hdr.ipv4.protocol : ternary;
            meta.l4_sport     : ternary;
            meta.l4_dport     : ternary;
        }
        actions = { permit; deny; }
        default_action = permit();
    }

    apply {
        if (hdr.ipv4.isValid()) {
            security_group_rules.apply();
        }
    }
}

/*
 * Forwarding inside the tenant: frames to the gateway MAC are routed in the
 * tenant's VRF, the rest are bridged in the tenant's VNI.  A destination is
 * a local VF or a tunnel to a remote VTEP.
 */
control TenantForwarding(inout sdn_headers_t hdr, inout sdn_meta_t meta) {
    action bridge_to_vf(nic_port_t port) {
        meta.out_port = port;
    }

    action bridge_to_remote(bit<16> tunnel) {
        meta.encap = true;
        meta.tunnel = tunnel;
    }

    action l2_miss() {
        meta.drop_reason = DROP_L2_MISS;
    }

    table tenant_macs {
        key = {
            meta.vni              : exact;
            hdr.ethernet.dst_addr : exact;
        }
        actions = { bridge_to_vf; bridge_to_remote; l2_miss; }
        default_action = l2_miss();
    }

    /* What every routed packet gets: the gateway as source MAC, the next
     * hop as destination MAC, one hop less. */
    action rewrite_for_route(mac_addr_t next_mac) {
        hdr.ethernet.src_addr = meta.gw_mac;
        hdr.ethernet.dst_addr = next_mac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        meta.routed = true;
    }

    action route_to_vf(nic_port_t port, mac_addr_t next_mac) {
        rewrite_for_route(next_mac);
        meta.out_port = port;
    }

    action route_to_remote(bit<16> tunnel, mac_addr_t next_mac) {
        rewrite_for_route(next_mac);
        meta.encap = true;
        meta.tunnel = tunnel;
    }

    action no_route() {
        meta.drop_reason = DROP_NO_ROUTE;
    }

    table tenant_routes {
        key = {
            meta.tenant       : exact @name("vrf");
            hdr.ipv4.dst_addr : lpm;
        }
        actions = { route_to_vf; route_to_remote; no_route; }
        default_action = no_route();
    }

    action set_tunnel(ipv4_addr_t remote_vtep, mac_addr_t underlay_mac, nic_port_t uplink) {
        meta.remote_vtep = remote_vtep;
        meta.underlay_mac = underlay_mac;
        meta.out_port = uplink;
    }

    action no_tunnel() {
        meta.drop_reason = DROP_NO_TUNNEL;
    }

    table tunnels {
        key = { meta.tunnel : exact; }
        actions = { set_tunnel; no_tunnel; }
        default_action = no_tunnel();
    }

    apply {
        if (meta.has_gateway && hdr.ipv4.isValid()
                && hdr.ethernet.dst_addr == meta.gw_mac) {
            if (hdr.ipv4.ihl != 5) {
                meta.drop_reason = DROP_IP_OPTIONS;
            } else if (hdr.ipv4.ttl <= 1) {
                meta.drop_reason = DROP_TTL_EXPIRED;
            } else {
                tenant_routes.apply();
            }
        } else {
            tenant_macs.apply();
        }
        if (meta.drop_reason == 0 && meta.encap) {
            tunnels.apply();
        }
    }
}

/*
 * Last word on where a tenant frame may go: a local destination must be a
 * VF (never the CPU port, never an uplink without encapsulation); a tunnel
 * must leave by an uplink, and never for a frame that came from one.
 */
control OutputGuard(inout sdn_meta_t meta) {
    apply {
        if (meta.encap) {
            if (meta.from_uplink) {
                meta.drop_reason = DROP_HAIRPIN;
            } else if (!nic_is_uplink(meta.out_port)) {
                meta.drop_reason = DROP_BAD_OUTPUT_PORT;
            }
        } else if (meta.out_port == NIC_CPU_PORT && meta.from_vf) {
            meta.drop_reason = DROP_VF_TO_CPU;
        } else if (!nic_is_vf(meta.out_port)) {
            meta.drop_reason = DROP_BAD_OUTPUT_PORT;
        }
    }
}

control SdnIngress(inout sdn_headers_t hdr,
                   inout sdn_meta_t meta,
                   inout standard_metadata_t sm) {
    /* Frames received from each VF (index: port). */
    counter(NIC_PORT_COUNT, CounterType.packets_and_bytes) vf_rx;
    /* Frames of each tenant, both directions (index: tenant id); each
     * tenant may read its own cell over P4Runtime. */
    @janus_tenant_index
    counter(TENANT_COUNT, CounterType.packets_and_bytes) tenant_packets;
    /* Dropped frames by reason (index: DROP_*). */
    counter(DROP_REASON_COUNT, CounterType.packets) drops;
    /* Dropped frames received from each VF (index: port). */
    counter(NIC_PORT_COUNT, CounterType.packets) vf_drops;

    CpuPacketOut()      cpu_port;
    ManagementNetwork() management;
    UplinkIngress()     uplink;
    VfClassify()        vf_classify;
    VfPolice()          vf_police;
    TenantGateway()     gateway;
    SecurityGroups()    security_groups;
    TenantForwarding()  forwarding;
    OutputGuard()       guard;

    apply {
        meta.from_cpu = sm.ingress_port == NIC_CPU_PORT;
        meta.from_uplink = nic_is_uplink(sm.ingress_port);
        meta.from_vf = nic_is_vf(sm.ingress_port);

        if (meta.from_cpu) {
            cpu_port.apply(hdr, meta);
        } else {
            if (sm.checksum_error == 1) {
                meta.drop_reason = DROP_BAD_CHECKSUM;
            }
            if (meta.drop_reason == 0 && meta.from_vf) {
                vf_classify.apply(hdr, meta, sm.ingress_port);
            }
            if (meta.drop_reason == 0) {
                management.apply(hdr, meta);
                if (meta.from_uplink) {
                    uplink.apply(hdr, meta);
                } else {
                    vf_police.apply(meta, sm.ingress_port);
                }
            }
            if (meta.drop_reason == 0 && meta.punt_reason == 0) {
                gateway.apply(hdr, meta);
            }
            if (meta.drop_reason == 0 && meta.punt_reason == 0) {
                security_groups.apply(hdr, meta);
            }
            if (meta.drop_reason == 0 && meta.punt_reason == 0) {
                forwarding.apply(hdr, meta);
            }
            if (meta.drop_reason == 0 && meta.punt_reason == 0) {
                guard.apply(meta);
            }
        }

        if (meta.from_vf) {
            vf_rx.count((bit<32>) sm.ingress_port);
        }
        if (meta.tenant != 0) {
            tenant_packets.count((bit<32>) meta.tenant);
        }
        if (meta.drop_reason != 0) {
            drops.count((bit<32>) meta.drop_reason);
            if (meta.from_vf) {
                vf_drops.count((bit<32>) sm.ingress_port);
            }
            mark_to_drop(sm);
        } else if (meta.punt_reason != 0) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = sm.ingress_port;
            hdr.packet_in._pad = 0;
            hdr.packet_in.reason = meta.punt_reason;
            sm.egress_spec = NIC_CPU_PORT;
        } else {
            sm.egress_spec = meta.out_port;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Egress                                                              */
/* ------------------------------------------------------------------ */

control SdnEgress(inout sdn_headers_t hdr,
                  inout sdn_meta_t meta,
                  inout standard_metadata_t sm) {
    /* Frames sent to each VF (index: port). */
    counter(NIC_PORT_COUNT, CounterType.packets_and_bytes) vf_tx;
    /* Frames dropped in egress, by reason (index: DROP_*). */
    counter(DROP_REASON_COUNT, CounterType.packets) drops;

    action set_port_owner(tenant_id_t tenant) {
        meta.port_owner = tenant;
    }

    /* Which tenant owns each VF: the same assignment as vf_tenants, looked
     * up again on the way out so that no table entry can hand one tenant's
     * frame to another tenant's VF. */
    table vf_owners {
        key = { sm.egress_port : exact; }
        actions = { set_port_owner; NoAction; }
        default_action = NoAction();
    }

    action vxlan_encap(mac_addr_t vtep_mac, ipv4_addr_t vtep_ipv4) {
        hdr.outer_ethernet.setValid();
        hdr.outer_ethernet.dst_addr = meta.underlay_mac;
        hdr.outer_ethernet.src_addr = vtep_mac;
        hdr.outer_ethernet.ether_type = ETH_TYPE_IPV4;

        hdr.outer_ipv4.setValid();
        hdr.outer_ipv4.version = 4;
        hdr.outer_ipv4.ihl = 5;
        hdr.outer_ipv4.diffserv = 0;
        hdr.outer_ipv4.total_len = meta.frame_len + VXLAN_IPV4_UDP_VXLAN_BYTES;
        hdr.outer_ipv4.identification = 0;
        hdr.outer_ipv4.flags = 0b010;           // don't fragment
        hdr.outer_ipv4.frag_offset = 0;
        hdr.outer_ipv4.ttl = 64;
        hdr.outer_ipv4.protocol = PROTO_UDP;
        hdr.outer_ipv4.hdr_checksum = 0;        // computed in SdnComputeChecksum
        hdr.outer_ipv4.src_addr = vtep_ipv4;
        hdr.outer_ipv4.dst_addr = meta.remote_vtep;

        hdr.outer_udp.setValid();
        hdr.outer_udp.src_port = meta.entropy_port;
        hdr.outer_udp.dst_port = UDP_PORT_VXLAN;
        hdr.outer_udp.length = meta.frame_len + VXLAN_UDP_VXLAN_BYTES;
        hdr.outer_udp.checksum = 0;             // allowed for VXLAN over IPv4

        hdr.vxlan.setValid();
        hdr.vxlan.flags = 0x08;
        hdr.vxlan.reserved = 0;
        hdr.vxlan.vni = meta.vni;
        hdr.vxlan.reserved2 = 0;
    }

    action no_vtep_source() {
        meta.egress_drop_reason = DROP_NO_VTEP_SOURCE;
    }

    /* Source MAC and VTEP address of each uplink. */
    table uplink_vteps {
        key = { sm.egress_port : exact; }
        actions = { vxlan_encap; no_vtep_source; }
        default_action = no_vtep_source();
    }

    apply {
        if (meta.from_cpu) {
            // Frames the CPU built leave as they are.
        } else if (nic_is_vf(sm.egress_port)) {
            vf_owners.apply();
            if (meta.port_owner == 0 || meta.port_owner != meta.tenant) {
                meta.egress_drop_reason = DROP_TENANT_MISMATCH;
            }
        } else if (meta.encap && nic_is_uplink(sm.egress_port)) {
            // Entropy for the fabric's ECMP: a hash of the tenant flow.
            if (hdr.ipv4.isValid()) {
                meta.flow_src = hdr.ipv4.src_addr;
                meta.flow_dst = hdr.ipv4.dst_addr;
                meta.flow_proto = hdr.ipv4.protocol;
            }
            hash(meta.entropy_port, HashAlgorithm.crc16, VXLAN_SPORT_BASE,
                 { hdr.ethernet.dst_addr, hdr.ethernet.src_addr, hdr.ethernet.ether_type,
                   meta.flow_src, meta.flow_dst, meta.flow_proto,
                   meta.l4_sport, meta.l4_dport },
                 VXLAN_SPORT_RANGE);
            uplink_vteps.apply();
        }

        if (meta.egress_drop_reason != 0) {
            drops.count((bit<32>) meta.egress_drop_reason);
            mark_to_drop(sm);
        } else if (nic_is_vf(sm.egress_port)) {
            vf_tx.count((bit<32>) sm.egress_port);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Checksums and deparser                                              */
/* ------------------------------------------------------------------ */

control SdnComputeChecksum(inout sdn_headers_t hdr, inout sdn_meta_t meta) {
    apply {
        // The outer header is new; the tenant header changed only if routed.
        update_checksum(hdr.outer_ipv4.isValid() && meta.encap,
            { hdr.outer_ipv4.version, hdr.outer_ipv4.ihl, hdr.outer_ipv4.diffserv,
              hdr.outer_ipv4.total_len, hdr.outer_ipv4.identification,
              hdr.outer_ipv4.flags, hdr.outer_ipv4.frag_offset, hdr.outer_ipv4.ttl,
              hdr.outer_ipv4.protocol, hdr.outer_ipv4.src_addr, hdr.outer_ipv4.dst_addr },
            hdr.outer_ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum(hdr.ipv4.isValid() && meta.routed,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification,
              hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control SdnDeparser(packet_out packet, in sdn_headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.outer_ethernet);
        packet.emit(hdr.outer_vlan);
        packet.emit(hdr.outer_ipv4);
        packet.emit(hdr.outer_udp);
        packet.emit(hdr.vxlan);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vlan);
        packet.emit(hdr.arp);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.ipv6);
        packet.emit(hdr.l4);
        packet.emit(hdr.icmpv6);
        packet.emit(hdr.nd);
    }
}

V1Switch(SdnParser(),
         SdnVerifyChecksum(),
         SdnIngress(),
         SdnEgress(),
         SdnComputeChecksum(),
         SdnDeparser()) main;
