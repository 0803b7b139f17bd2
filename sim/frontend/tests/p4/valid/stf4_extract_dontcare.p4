// STF rule (P4_16 spec 13.8.4 skipping bits): `pkt.extract<T>(_)` skips
// T's width of the packet without storing it (the bits vanish from the
// output, as with advance); it fails with PacketTooShort when the packet is
// shorter, like any extract.
#include <core.p4>
#include <v1model.p4>

header a_t { bit<8> k; }
header skip_t { bit<24> junk; }
header b_t { bit<8> v; }
header r_t { bit<8> err; }
struct headers_t {
    r_t r;
    a_t a;
    b_t b;
}
struct meta_t { }

parser XdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        transition select(hdr.a.k) {
            1: skip3;
            default: take;
        }
    }
    state skip3 {
        pkt.extract<skip_t>(_);
        transition take;
    }
    state take {
        pkt.extract(hdr.b);
        transition accept;
    }
}

control XdVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control XdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.r.setValid();
        hdr.r.err = sm.parser_error == error.NoError ? 8w0 : 8w1;
        sm.egress_spec = 2;
    }
}

control XdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control XdCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control XdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.r);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(XdParser(), XdVerify(), XdIngress(), XdEgress(), XdCompute(),
         XdDeparser()) main;
