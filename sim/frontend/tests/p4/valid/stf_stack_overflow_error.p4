// STF rule: extracting into `stack.next` when every element is already
// filled fails with error.StackOutOfBounds. As with any parser error, the
// packet is not dropped: the elements extracted before stay valid and the
// bytes not extracted stay in the payload. In the parser loop, `last` is the
// element just extracted and `lastIndex` its index.
#include <core.p4>
#include <v1model.p4>

header info_t {
    bit<8> err;      // written by ingress
    bit<8> count;    // elements extracted (from the parser)
    bit<8> lastidx;  // lastIndex after the last extraction
    bit<8> sum;      // sum of the values extracted
}

header item_t {
    bit<8> v;
}

struct headers_t {
    info_t    info;
    item_t[3] items;
}

struct meta_t {
    bit<8> count;
    bit<8> lastidx;
    bit<8> sum;
}

parser SoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.info);
        transition parse_item;
    }
    state parse_item {
        pkt.extract(hdr.items.next);
        meta.count = meta.count + 1;
        meta.lastidx = (bit<8>)hdr.items.lastIndex;
        meta.sum = meta.sum + hdr.items.last.v;
        transition select(hdr.items.last.v) {
            0       : accept;
            default : parse_item;
        }
    }
}

control SoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (sm.parser_error == error.NoError) {
            hdr.info.err = 0;
        } else if (sm.parser_error == error.StackOutOfBounds) {
            hdr.info.err = 1;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.info.err = 2;
        } else {
            hdr.info.err = 0xf;
        }
        hdr.info.count = meta.count;
        hdr.info.lastidx = meta.lastidx;
        hdr.info.sum = meta.sum;
    }
}

control SoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.info);
        pkt.emit(hdr.items);
    }
}

V1Switch(SoParser(), SoVerify(), SoIngress(), SoEgress(), SoCompute(),
         SoDeparser()) main;
