// Realistic v1model program: equal-cost multipath routing two ways — a group
// table plus an explicit `hash` into a member table, and a WCMP table whose
// `implementation` is an action_selector with `selector` key fields.
#include <core.p4>
#include <v1model.p4>

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> ident;
    bit<3>  flags;
    bit<13> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

header ports_h {
    bit<16> sport;
    bit<16> dport;
}

struct headers {
    ethernet_h eth;
    ipv4_h     ipv4;
    ports_h    ports;
}

struct meta_t {
    bit<14> ecmp_base;
    bit<14> ecmp_count;
    bit<14> ecmp_member;
    bit<16> sport;
    bit<16> dport;
    bool    use_wcmp;
}

parser EcmpParser(packet_in pkt, out headers hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x0800  : ipv4;
            default : accept;
        }
    }
    state ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.proto, hdr.ipv4.frag) {
            (6, 0)  : ports;
            (17, 0) : ports;
            default : accept;
        }
    }
    state ports {
        pkt.extract(hdr.ports);
        meta.sport = hdr.ports.sport;
        meta.dport = hdr.ports.dport;
        transition accept;
    }
}

control EcmpVerify(inout headers hdr, inout meta_t meta) {
    apply { }
}

control EcmpIngress(inout headers hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {

    action_selector(HashAlgorithm.crc16, 32w1024, 32w14) wcmp_selector;

    action drop() {
        mark_to_drop(sm);
    }

    // Group lookup: remembers the member range and hashes the 5-tuple into it.
    action set_group(bit<14> base, bit<14> count) {
        meta.ecmp_base = base;
        meta.ecmp_count = count;
        hash(meta.ecmp_member,
             HashAlgorithm.crc16,
             base,
             { hdr.ipv4.src,
               hdr.ipv4.dst,
               hdr.ipv4.proto,
               meta.sport,
               meta.dport },
             count);
    }

    action use_weighted() {
        meta.use_wcmp = true;
    }

    table ecmp_group {
        key = {
            hdr.ipv4.dst : lpm;
        }
        actions = {
            set_group;
            use_weighted;
            drop;
        }
        size = 1024;
        default_action = drop();
    }

    action set_nexthop(bit<48> dmac, bit<48> smac, bit<9> port) {
        hdr.eth.dst = dmac;
        hdr.eth.src = smac;
        sm.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table ecmp_member {
        key = {
            meta.ecmp_member : exact;
        }
        actions = {
            set_nexthop;
            drop;
        }
        size = 16384;
        default_action = drop();
    }

    table wcmp {
        key = {
            hdr.ipv4.dst   : lpm;
            hdr.ipv4.src   : selector;
            hdr.ipv4.proto : selector;
            meta.sport     : selector;
            meta.dport     : selector;
        }
        actions = {
            set_nexthop;
            drop;
        }
        implementation = wcmp_selector;
        size = 1024;
        default_action = drop();
    }

    apply {
        meta.use_wcmp = false;
        if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1) {
            ecmp_group.apply();
            if (meta.use_wcmp) {
                wcmp.apply();
            } else {
                ecmp_member.apply();
            }
        } else {
            drop();
        }
    }
}

control EcmpEgress(inout headers hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control EcmpCompute(inout headers hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
                        { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos,
                          hdr.ipv4.total_len, hdr.ipv4.ident, hdr.ipv4.flags,
                          hdr.ipv4.frag, hdr.ipv4.ttl, hdr.ipv4.proto,
                          hdr.ipv4.src, hdr.ipv4.dst },
                        hdr.ipv4.csum,
                        HashAlgorithm.csum16);
    }
}

control EcmpDeparser(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ports);
    }
}

V1Switch(EcmpParser(), EcmpVerify(), EcmpIngress(), EcmpEgress(),
         EcmpCompute(), EcmpDeparser()) main;
