// STF rule: an action in a table's action list may bind its directional
// parameters to data-plane values (`add_from(hdr.h.a)`); only the remaining
// directionless parameters come from the entry, so STF `add` and
// `setdefault` name only those. in arguments are read, out/inout ones are
// written back through the bound expression.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> a;
    bit<8> res;
    bit<8> o;
    bit<8> cnt;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser DaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control DaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action add_from(in bit<8> src, bit<8> amount) {
        hdr.h.res = src + amount;
    }

    action copy_to(out bit<8> dst, bit<8> v) {
        dst = v;
    }

    action inc(inout bit<8> x, bit<8> by) {
        x = x + by;
    }

    table t {
        key = { hdr.h.k : exact; }
        actions = {
            add_from(hdr.h.a);
            copy_to(hdr.h.o);
            inc(hdr.h.cnt);
        }
        default_action = inc(hdr.h.cnt, 0x10);
    }

    apply {
        sm.egress_spec = 1;
        t.apply();
    }
}

control DaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control DaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(DaParser(), DaVerify(), DaIngress(), DaEgress(), DaCompute(),
         DaDeparser()) main;
