// v1model program: a stateless server load balancer that picks a backend
// with `random`, remembers the choice per flow hash in a register, and uses
// a custom serializable enum for the balancing mode.
#include <core.p4>
#define V1MODEL_VERSION 20200408
#include <v1model.p4>

enum bit<2> lb_mode_t {
    RANDOM = 0,
    STICKY = 1,
    PINNED = 2
}

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<8>  ver_ihl;
    bit<8>  tos;
    bit<16> len;
    bit<16> id;
    bit<16> frag;
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
    lb_mode_t mode;
    bit<8>    backend;
    bit<8>    backend_count;
    bit<10>   flow_slot;
}

parser LbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
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

control LbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<8>, bit<10>>(1024) sticky_choice;

    action drop() {
        mark_to_drop(sm);
    }

    action set_vip(lb_mode_t mode, bit<8> count) {
        meta.mode = mode;
        meta.backend_count = count;
    }

    table vip {
        key = { hdr.ipv4.dst : exact; }
        actions = { set_vip; drop; }
        default_action = drop();
    }

    action to_backend(bit<32> ip, bit<9> port) {
        hdr.ipv4.dst = ip;
        sm.egress_spec = port;
    }

    table backends {
        key = {
            hdr.ipv4.dst : exact;
            meta.backend : exact;
        }
        actions = { to_backend; drop; }
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            return;
        }
        if (vip.apply().miss) {
            return;
        }
        hash(meta.flow_slot, HashAlgorithm.crc32, 10w0,
             { hdr.ipv4.src, hdr.ipv4.dst, hdr.ipv4.proto }, 11w1024);
        if (meta.mode == lb_mode_t.RANDOM) {
            random(meta.backend, 8w0, meta.backend_count - 1);
        } else if (meta.mode == lb_mode_t.STICKY) {
            sticky_choice.read(meta.backend, meta.flow_slot);
            if (meta.backend >= meta.backend_count) {
                random(meta.backend, 8w0, meta.backend_count - 1);
                sticky_choice.write(meta.flow_slot, meta.backend);
            }
        } else {
            meta.backend = 0;
        }
        backends.apply();
    }
}

control LbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(LbParser(), LbVerify(), LbIngress(), LbEgress(), LbCompute(),
         LbDeparser()) main;
