// STF rule (name resolution): @name replaces the control-plane name of a
// table (`@name("acl_tbl")` -> Ing.acl_tbl), of a key (`@name("alpha")`:
// the key is written `alpha`, not by its expression) and of an action
// (`@name("mark")`); `@name(".global_t")` gives a top-level name. STF
// `add`/`setdefault` use those names; action parameters are named as
// declared and may come in any order.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> m;
    bit<8> n;
}

struct headers_t { h_t h; }
struct meta_t { }

parser NaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control NaVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    @name("mark") action set_mark(bit<8> hi, bit<8> lo) {
        hdr.h.m = hi ^ lo;
        hdr.h.n = lo;
    }
    action plain() { hdr.h.m = 0xee; }

    @name("acl_tbl") table classify {
        key = {
            hdr.h.a : exact @name("alpha");
            hdr.h.b : exact @name("beta");
        }
        actions = { set_mark; plain; }
        default_action = plain();
    }

    action out_port(bit<9> p) { sm.egress_spec = p; }
    @name(".global_t") table port_sel {
        key = { hdr.h.a : exact @name("sel"); }
        actions = { out_port; }
        default_action = out_port(1);
    }

    apply {
        classify.apply();
        port_sel.apply();
    }
}

control NaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control NaCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control NaDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(NaParser(), NaVerify(), Ing(), NaEgress(), NaCompute(),
         NaDeparser()) main;
