// STF rules for exact tables and defaults: a hit runs the entry's action with
// its data; a miss runs the default action (the program's, or the one set
// with `setdefault`); key fields left out of an `add` line are exact 0; a
// keyless table only ever runs its default action.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  k1;
    bit<16> k2;
    bit<8>  result;
    bit<8>  extra;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser ExParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control ExVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ExIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_result(bit<8> r) {
        hdr.h.result = r;
    }

    action set_port(bit<9> port) {
        sm.egress_spec = port;
    }

    table lookup {
        key = {
            hdr.h.k1 : exact;
            hdr.h.k2 : exact;
        }
        actions = { set_result; set_port; }
        default_action = set_result(0xee);
    }

    action mark(bit<8> e) {
        hdr.h.extra = e;
    }

    table keyless {
        actions = { mark; NoAction; }
        default_action = NoAction();
    }

    apply {
        sm.egress_spec = 1;
        lookup.apply();
        keyless.apply();
    }
}

control ExEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control ExCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ExDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(ExParser(), ExVerify(), ExIngress(), ExEgress(), ExCompute(),
         ExDeparser()) main;
