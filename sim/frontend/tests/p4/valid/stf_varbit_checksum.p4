// STF rule: update_checksum covers every field of the list, a varbit field
// included (with its current length); fields of invalid headers are left
// out, as bmv2 does.
#include <core.p4>
#include <v1model.p4>

header base_t {
    bit<8>  len;     // number of option bytes that follow (0..8)
    bit<8>  tag;
    bit<16> csum;
}

header opts_t {
    varbit<64> data;
}

struct headers_t {
    base_t base;
    opts_t opts;
}

struct meta_t { }

parser VcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.base);
        transition select(hdr.base.len) {
            0       : accept;
            default : parse_opts;
        }
    }
    state parse_opts {
        pkt.extract(hdr.opts, (bit<32>)hdr.base.len * 8);
        transition accept;
    }
}

control VcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control VcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.base.tag == 0xdd) {
            // Drop the options from the packet (and from the checksum).
            hdr.opts.setInvalid();
        }
    }
}

control VcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control VcCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.base.isValid(),
            { hdr.base.len, hdr.base.tag, hdr.opts.data },
            hdr.base.csum, HashAlgorithm.csum16);
    }
}

control VcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.base);
        pkt.emit(hdr.opts);
    }
}

V1Switch(VcParser(), VcVerify(), VcIngress(), VcEgress(), VcCompute(),
         VcDeparser()) main;
