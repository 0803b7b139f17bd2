// STF rule: in an lpm table with const entries the longest matching prefix
// wins, whatever the order the entries are listed in (the "first listed
// wins" order applies to ternary/range entries only). `_` on an lpm key is
// the /0 prefix.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<32> addr;
    bit<8>  len;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser LcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control LcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_len(bit<8> l) {
        hdr.h.len = l;
    }

    table fib {
        key = { hdr.h.addr : lpm; }
        actions = { set_len; }
        const entries = {
            _                                 : set_len(0);
            0x0a000000 &&& 0xff000000         : set_len(8);
            0x0a010000 &&& 0xffff0000         : set_len(16);
            0x0a010200 &&& 0xffffff00         : set_len(24);
            0x0a010203 &&& 0xffffffff         : set_len(32);
        }
        default_action = set_len(0xee);
    }

    apply {
        sm.egress_spec = 1;
        fib.apply();
    }
}

control LcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(LcParser(), LcVerify(), LcIngress(), LcEgress(), LcCompute(),
         LcDeparser()) main;
