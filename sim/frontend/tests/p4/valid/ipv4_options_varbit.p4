// Realistic v1model program: IPv4 with options. The options live in a header
// with a single varbit field, extracted with the two-argument `extract`;
// a user-declared error reports malformed IHL values through `verify`.
#include <core.p4>
#define V1MODEL_VERSION 20200408
#include <v1model.p4>

error { IPv4HeaderTooShort, IPv4BadVersion }

header ethernet_t {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ipv4_base_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

// Up to 40 bytes of options.
header ipv4_options_t {
    varbit<320> options;
}

struct headers_t {
    ethernet_t     ethernet;
    ipv4_base_t    ipv4;
    ipv4_options_t ipv4_options;
}

struct metadata_t {
    bit<32> option_bits;
    bool    has_options;
}

parser OptParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        meta.option_bits = 0;
        meta.has_options = false;
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        verify(hdr.ipv4.version == 4w4, error.IPv4BadVersion);
        verify(hdr.ipv4.ihl >= 4w5, error.IPv4HeaderTooShort);
        transition select(hdr.ipv4.ihl) {
            4w5     : accept;
            default : parse_ipv4_options;
        }
    }

    state parse_ipv4_options {
        // (ihl - 5) 32-bit words of options follow the fixed header.
        meta.option_bits = (bit<32>)(((bit<16>)hdr.ipv4.ihl - 16w5) * 16w32);
        meta.has_options = true;
        packet.extract(hdr.ipv4_options, meta.option_bits);
        transition accept;
    }
}

control OptVerify(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr,
              hdr.ipv4_options.options },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control OptIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {

    counter<bit<32>>(32w2, CounterType.packets) option_counter;

    action drop() {
        mark_to_drop(standard_metadata);
    }

    action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    // Remove the options and shrink the header accordingly.
    action strip_options(bit<9> port) {
        hdr.ipv4_options.setInvalid();
        hdr.ipv4.total_len = hdr.ipv4.total_len - (bit<16>)(meta.option_bits >> 3);
        hdr.ipv4.ihl = 5;
        forward(port);
    }

    table route {
        key = {
            hdr.ipv4.dst_addr : lpm;
            meta.has_options  : exact;
        }
        actions = { forward; strip_options; drop; }
        default_action = drop();
    }

    apply {
        if (standard_metadata.parser_error != error.NoError) {
            drop();
            return;
        }
        if (hdr.ipv4.isValid()) {
            if (meta.has_options) {
                option_counter.count(1);
            } else {
                option_counter.count(0);
            }
            route.apply();
        }
    }
}

control OptEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control OptCompute(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr,
              hdr.ipv4_options.options },
            hdr.ipv4.hdr_checksum,
            HashAlgorithm.csum16);
    }
}

control OptDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.ipv4_options);
    }
}

V1Switch(OptParser(), OptVerify(), OptIngress(), OptEgress(), OptCompute(),
         OptDeparser()) main;
