// Probe (P4_16 syntax real programs use): unstructured annotations whose
// bodies hold any tokens (@sai_action(SAI_PACKET_ACTION_DROP, RED),
// @entry_restriction("..."), @format(IPV4_ADDRESS), @refers_to(t, f),
// @p4runtime_translation on a type, @id, @brief, @pragma) change nothing;
// integer literals with underscores and 0o/0d/0b/0X prefixes, signed
// literals; table properties written as constant expressions (size = 1 << 4);
// @defaultonly and @tableonly in an actions list; an empty key.
#include <core.p4>
#include <v1model.p4>

@p4runtime_translation("janus.test/port", string)
type bit<9> port_t;
header h_t {
    @format(IPV4_ADDRESS) bit<32> addr;
    bit<8> kind;
    bit<8> o1; bit<8> o2; bit<8> o3; bit<8> o4; bit<16> o5;
}
struct headers_t { h_t h; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    @id(0x01000001) @brief("sends to a port")
    @sai_action(SAI_PACKET_ACTION_FORWARD, GREEN)
    action fwd(@refers_to(ports, id) port_t p) { sm.egress_spec = (bit<9>)p; }
    @sai_action(SAI_PACKET_ACTION_DROP, RED)
    action drop() { mark_to_drop(sm); }
    @entry_restriction("
        // only IPv4 kinds
        kind::mask != 0 -> kind == 4;
    ")
    @pragma my_pragma with tokens 1 2 3
    table route {
        key = {
            hdr.h.addr : exact @format(IPV4_ADDRESS) @name("addr");
        }
        actions = { @tableonly fwd; @defaultonly drop; }
        const default_action = drop();
        size = 1 << 4;
    }
    action lit() {
        hdr.h.o1 = 0o17;
        hdr.h.o2 = 8w0b1010_0101;
        hdr.h.o3 = 0d99;
        hdr.h.o4 = (bit<8>)8s0x7F;
        hdr.h.o5 = 16w0XBE_EF;
    }
    table keyless {
        key = { }
        actions = { lit; }
        default_action = lit();
    }
    apply {
        route.apply();
        keyless.apply();
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
