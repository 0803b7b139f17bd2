// Realistic v1model program: IPv4 multicast replication. Ingress picks a
// multicast group (mcast_grp) per (VLAN, group address); egress rewrites each
// replica according to its egress_rid and prunes the source port.
#include <core.p4>
#include <v1model.p4>

typedef bit<12> vlan_id_t;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header vlan_t {
    bit<3>    pcp;
    bit<1>    dei;
    vlan_id_t vid;
    bit<16>   etype;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> len;
    bit<16> id;
    bit<3>  flags;
    bit<13> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

struct headers_t {
    ethernet_t eth;
    vlan_t     vlan;
    ipv4_t     ipv4;
}

struct meta_t {
    vlan_id_t vid;
    bit<9>    src_port;
}

parser McastParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    state start {
        meta.vid = 1;
        meta.src_port = sm.ingress_port;
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x8100  : parse_vlan;
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        meta.vid = hdr.vlan.vid;
        transition select(hdr.vlan.etype) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control McastVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control McastIngress(inout headers_t hdr, inout meta_t meta,
                     inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action set_group(bit<16> group) {
        sm.mcast_grp = group;
    }

    action unicast(bit<9> port) {
        sm.egress_spec = port;
    }

    table mcast_route {
        key = {
            meta.vid     : exact;
            hdr.ipv4.dst : exact;
        }
        actions = { set_group; drop; }
        size = 2048;
        default_action = drop();
    }

    table ucast_route {
        key = { hdr.ipv4.dst : lpm; }
        actions = { unicast; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            return;
        }
        // 224.0.0.0/4 is the IPv4 multicast range.
        if (hdr.ipv4.dst[31:28] == 4w0xE) {
            mcast_route.apply();
        } else {
            ucast_route.apply();
        }
    }
}

control McastEgress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action prune() {
        mark_to_drop(sm);
    }

    // Each replica carries a replication id chosen by the control plane.
    action rewrite_replica(vlan_id_t vid, bit<48> smac) {
        hdr.eth.src = smac;
        if (hdr.vlan.isValid()) {
            hdr.vlan.vid = vid;
        }
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table replica {
        key = {
            sm.egress_rid  : exact;
            sm.egress_port : exact;
        }
        actions = { rewrite_replica; prune; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (sm.mcast_grp != 0) {
            if (sm.egress_port == meta.src_port) {
                prune();
            } else {
                replica.apply();
            }
        }
    }
}

control McastCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.len,
              hdr.ipv4.id, hdr.ipv4.flags, hdr.ipv4.frag, hdr.ipv4.ttl,
              hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control McastDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.vlan);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(McastParser(), McastVerify(), McastIngress(), McastEgress(),
         McastCompute(), McastDeparser()) main;
