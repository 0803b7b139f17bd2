// Language test: a header stack whose elements are header unions, filled one
// element at a time with `next`, choosing the member by peeking at the next
// byte; one member has a varbit field read with the two-argument extract.
#include <core.p4>

header pad_h {
    bit<8> code;
}

header stamp_h {
    bit<8>  code;
    bit<8>  size;
    bit<32> value;
    bit<32> echo;
}

header blob_h {
    bit<8>      code;
    bit<8>      size;
    varbit<320> bytes;
}

header_union option_u {
    pad_h   pad;
    stamp_h stamp;
    blob_h  blob;
}

typedef option_u[8] option_list_t;

struct option_head_t {
    bit<8> code;
    bit<8> size;
}

parser OptionList(packet_in pkt, out option_list_t options) {
    state start {
        transition select(pkt.lookahead<bit<8>>()) {
            8w0     : accept;         // end of the option list
            8w1     : read_pad;
            8w8     : read_stamp;
            default : read_blob;
        }
    }
    state read_pad {
        pkt.extract(options.next.pad);
        transition start;
    }
    state read_stamp {
        pkt.extract(options.next.stamp);
        transition start;
    }
    state read_blob {
        option_head_t head = pkt.lookahead<option_head_t>();
        // `size` counts the whole option, including the two-byte head.
        pkt.extract(options.next.blob, (bit<32>)(head.size - 2) << 3);
        transition start;
    }
}
