// Language test: parser features — local variables and constants declared
// in the parser and in states, if/else inside a state (P4 1.2.2+), empty
// statements, block statements, `verify` with core and user errors, and
// transitions to `reject` and `accept`.
#include <core.p4>

error { UnsupportedVersion, ZeroLength }

header tlv_h {
    bit<4>  version;
    bit<4>  flags;
    bit<8>  length;
    bit<16> value;
}

struct tlv_headers_t {
    tlv_h first;
    tlv_h second;
}

struct tlv_meta_t {
    bit<8> total_length;
    bool   two_tlvs;
}

parser TlvParser(packet_in pkt, out tlv_headers_t hdr, inout tlv_meta_t meta) {
    const bit<4> SUPPORTED_VERSION = 2;
    bit<8> running_total = 0;

    state start {
        pkt.extract(hdr.first);
        verify(hdr.first.version == SUPPORTED_VERSION, error.UnsupportedVersion);
        verify(hdr.first.length != 0, error.ZeroLength);
        running_total = hdr.first.length;
        ;
        if (hdr.first.flags[0:0] == 1) {
            meta.two_tlvs = true;
        } else {
            meta.two_tlvs = false;
        }
        transition select(meta.two_tlvs) {
            true  : parse_second;
            false : finish;
        }
    }

    state parse_second {
        pkt.extract(hdr.second);
        {
            bit<8> len = hdr.second.length;
            if (len == 0) {
                verify(false, error.ZeroLength);
            }
            running_total = running_total + len;
        }
        transition finish;
    }

    state finish {
        meta.total_length = running_total;
        transition select(running_total) {
            0       : reject;
            default : accept;
        }
    }
}
