// Realistic v1model program built with the preprocessor: object-like and
// function-like #define macros, #undef, #ifdef / #ifndef / #if / #elif /
// #else / #endif, and a backslash-newline continuation.
#include <core.p4>
#include <v1model.p4>

#define ENABLE_ACL
#define TABLE_SIZE 1024
#define NUM_PORTS 64
#define ETH_IPV4 0x0800
#define PORT_BITS 9
#define MAKE_DSCP(ecn) (6w46 ++ (ecn))
#define DEBUG_LEVEL 2

#ifndef TABLE_SIZE
#error "TABLE_SIZE must be defined"
#endif

#if NUM_PORTS > 128
typedef bit<16> port_index_t;
#elif NUM_PORTS > 32
typedef bit<8> port_index_t;
#else
typedef bit<4> port_index_t;
#endif

#define TEMP_MACRO 1
#undef TEMP_MACRO
#ifdef TEMP_MACRO
#error "TEMP_MACRO should have been undefined"
#endif

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
    port_index_t port_index;
    bool         denied;
}

parser PpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        meta.denied = false;
        meta.port_index = (port_index_t)sm.ingress_port;
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            ETH_IPV4 : parse_ipv4;
            default  : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control PpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action forward(bit<PORT_BITS> port) {
        sm.egress_spec = port;
    }

    action mark_expedited(bit<2> ecn) {
        hdr.ipv4.tos = MAKE_DSCP(ecn);
    }

    table route {
        key = { hdr.ipv4.dst : lpm; }
        actions = { forward; drop; }
        size = TABLE_SIZE;
        default_action = drop();
    }

    table qos {
        key = { hdr.ipv4.proto : exact; }
        actions = { mark_expedited; NoAction; }
        size = TABLE_SIZE / 4;
        default_action = NoAction();
    }

#ifdef ENABLE_ACL
    action deny() {
        meta.denied = true;
    }

    table acl {
        key = {
            hdr.ipv4.src : ternary;
            hdr.ipv4.dst : ternary;
        }
        actions = { deny; NoAction; }
        size = TABLE_SIZE;
        default_action = NoAction();
    }
#endif

    apply {
        if (!hdr.ipv4.isValid()) {
            drop();
            return;
        }
#ifdef ENABLE_ACL
        acl.apply();
        if (meta.denied) {
            drop();
            return;
        }
#endif
        route.apply();
        qos.apply();
#if DEBUG_LEVEL >= 2
        log_msg("routed packet, ttl={} \
proto={}", { hdr.ipv4.ttl, hdr.ipv4.proto });
#endif
    }
}

control PpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control PpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(PpParser(), PpVerify(), PpIngress(), PpEgress(), PpCompute(),
         PpDeparser()) main;
