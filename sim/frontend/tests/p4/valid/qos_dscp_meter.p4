// Realistic v1model program: DiffServ edge marking. A classifier assigns a
// traffic class, a direct_meter colours each flow, and the colour selects
// the DSCP and the egress queue priority through a switch on bit<2> values.
#include <core.p4>
#include <v1model.p4>

const bit<2> GREEN  = 0;
const bit<2> YELLOW = 1;
const bit<2> RED    = 2;

const bit<6> DSCP_EF   = 46;
const bit<6> DSCP_AF11 = 10;
const bit<6> DSCP_AF12 = 12;
const bit<6> DSCP_BE   = 0;

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
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
    ipv4_t     ipv4;
}

struct meta_t {
    bit<2> color;
    bit<3> tclass;
}

parser QosParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control QosVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control QosIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    direct_meter<bit<2>>(MeterType.bytes) flow_meter;

    action classify(bit<3> tclass) {
        meta.tclass = tclass;
        flow_meter.read(meta.color);
    }

    action best_effort() {
        meta.tclass = 0;
        flow_meter.read(meta.color);
    }

    table classifier {
        key = {
            hdr.ipv4.src   : ternary;
            hdr.ipv4.dst   : ternary;
            hdr.ipv4.proto : ternary;
        }
        actions = { classify; best_effort; }
        meters = flow_meter;
        default_action = best_effort();
        size = 512;
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }

    action drop() {
        mark_to_drop(sm);
    }

    table route {
        key = { hdr.ipv4.dst : lpm; }
        actions = { forward; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            return;
        }
        meta.color = GREEN;
        classifier.apply();
        switch (meta.color) {
            GREEN: {
                if (meta.tclass == 5) {
                    hdr.ipv4.dscp = DSCP_EF;
                } else {
                    hdr.ipv4.dscp = DSCP_AF11;
                }
            }
            YELLOW: {
                hdr.ipv4.dscp = DSCP_AF12;
            }
            RED: {
                drop();
                exit;
            }
            default: {
                hdr.ipv4.dscp = DSCP_BE;
            }
        }
        sm.priority = meta.tclass;
        route.apply();
    }
}

control QosEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        // Signal congestion instead of dropping when the queue builds up.
        if (hdr.ipv4.isValid() && hdr.ipv4.ecn != 0 && sm.enq_qdepth > 19w64) {
            hdr.ipv4.ecn = 3;
        }
    }
}

control QosCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.len, hdr.ipv4.id, hdr.ipv4.flags, hdr.ipv4.frag,
              hdr.ipv4.ttl, hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control QosDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(QosParser(), QosVerify(), QosIngress(), QosEgress(), QosCompute(),
         QosDeparser()) main;
