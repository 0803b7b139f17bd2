// Language test: packet_in methods — lookahead<T>() with a bit<> type and a
// header type (used in select and in assignments), advance(), length(),
// and extract into `_` to skip a typed chunk.
#include <core.p4>

header prefix_h {
    bit<8>  kind;
    bit<8>  len;
    bit<16> value;
}

header body_h {
    bit<32> data;
}

struct parsed_t {
    prefix_h prefix;
    body_h   body;
}

struct info_t {
    bit<32> packet_bytes;
    bit<8>  peeked_kind;
}

parser Peek(packet_in pkt, out parsed_t hdr, inout info_t info) {
    state start {
        info.packet_bytes = pkt.length();
        info.peeked_kind = pkt.lookahead<bit<8>>();
        transition select(pkt.lookahead<bit<8>>()) {
            8w0x00 : skip_padding;
            8w0xFF : skip_word;
            default: parse_prefix;
        }
    }
    state skip_padding {
        pkt.advance(8);
        transition start;
    }
    state skip_word {
        pkt.extract<body_h>(_);
        transition parse_prefix;
    }
    state parse_prefix {
        prefix_h peeked = pkt.lookahead<prefix_h>();
        transition select(peeked.len) {
            0       : accept;
            default : parse_both;
        }
    }
    state parse_both {
        pkt.extract(hdr.prefix);
        pkt.advance((bit<32>)hdr.prefix.len * 8);
        pkt.extract(hdr.body);
        transition accept;
    }
}
