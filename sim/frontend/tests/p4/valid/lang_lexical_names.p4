// Lexical breadth: integer literals in every base, with width and sign
// prefixes and underscores; comments of both kinds; structured and
// unstructured annotations; contextual keywords (type, key, state, entries,
// priority, actions, apply, list) used as field and variable names.
#include <core.p4>
#include <v1model.p4>

header in_t { bit<8> type; bit<8> key; }
header out_t {
    bit<8> hex; bit<8> bin; bit<8> oct; bit<16> under; bit<8> dec;
    bit<8> state; bit<8> entries; bit<8> priority; bit<8> actions; bit<8> apply;
    bit<8> list;
}
struct headers_t { in_t i; out_t o; }
struct meta_t { }

@brief("free text, with a comma")
@description["structured", 42, true]
parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;  /* block comment / * with * stars */
        hdr.o.setValid();
        hdr.o.hex = 8w0xA_B;      // 0xab
        hdr.o.bin = 8w0b1010_0101; // 0xa5
        hdr.o.oct = 8w0o17 + 0O1; // 15 + 1 = 0x10
        hdr.o.under = 16w1_000;   // 0x03e8
        hdr.o.dec = (bit<8>)8s0x7f + 0d10; // 127 + 10 = 0x89
        bit<8> state = hdr.i.type + 1;
        hdr.o.state = state;
        hdr.o.entries = hdr.i.key;
        hdr.o.priority = 0X1F;
        bit<8> actions = 0b11;
        hdr.o.actions = actions;
        bit<8> apply = 8;
        hdr.o.apply = apply;
        bit<8> list = 9;
        hdr.o.list = list;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.i); pkt.emit(hdr.o); }
}

@pkginfo[arch = "v1model", version = "1.0"]
V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
