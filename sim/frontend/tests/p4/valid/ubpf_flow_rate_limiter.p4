// uBPF program (ubpf_model.p4, default version): a per-host-pair rate
// limiter.  The pair (source, destination) is hashed with lookup3 into a
// 32-bit flow id -- the target hashes at most 64 bits, which is exactly the
// two addresses -- and a bucket index.  Two Registers keep, per bucket, the
// packet count of the current time window and the window's start time
// (ubpf_time_get_ns, nanoseconds); a third register, with a struct value,
// remembers which flow owns the bucket.  Packets over the budget are
// dropped, except the first refused packet of a window, which is cut down
// to its headers with truncate and redirected to a monitoring port.
#include <core.p4>
#include <ubpf_model.p4>

const bit<32> BUCKETS        = 4096;
const bit<32> BUDGET         = 100;          // packets per window
const bit<48> WINDOW_NS      = 100000000;    // 100 ms
const bit<32> MONITOR_PORT   = 7;
const bit<32> HEADER_BYTES   = 34;           // Ethernet + IPv4 without options

header ethernet_h { bit<48> dst; bit<48> src; bit<16> ether_type; }
header ipv4_h {
    bit<4>  version;  bit<4>  ihl;      bit<8>  tos;     bit<16> total_len;
    bit<16> ident;    bit<3>  flags;    bit<13> frag_offset;
    bit<8>  ttl;      bit<8>  protocol; bit<16> checksum;
    bit<32> src;      bit<32> dst;
}

struct headers_t {
    ethernet_h ethernet;
    ipv4_h     ipv4;
}

struct owner_t {
    bit<32> flow_id;
    bit<32> src;
}

struct meta_t {
    bit<32> flow_id;
    bit<32> bucket;
}

parser LimiterParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                     inout standard_metadata std) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control LimiterPipe(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata std) {
    Register<bit<32>, bit<32>>(BUCKETS) packet_count;
    Register<bit<48>, bit<32>>(BUCKETS) window_start;
    Register<owner_t, bit<32>>(BUCKETS) bucket_owner;

    apply {
        if (!hdr.ipv4.isValid()) {
            return;     // not IPv4: left alone (passed)
        }
        hash(meta.flow_id, HashAlgorithm.lookup3, { hdr.ipv4.src, hdr.ipv4.dst });
        meta.bucket = meta.flow_id & (BUCKETS - 1);

        bit<48> now = ubpf_time_get_ns();
        bit<48> start = window_start.read(meta.bucket);
        bit<32> count = packet_count.read(meta.bucket);
        owner_t owner = bucket_owner.read(meta.bucket);

        // A new window, or the bucket changes hands: start counting afresh.
        if (now - start > WINDOW_NS || owner.flow_id != meta.flow_id) {
            window_start.write(meta.bucket, now);
            bucket_owner.write(meta.bucket, { meta.flow_id, hdr.ipv4.src });
            count = 0;
        }

        if (count < BUDGET) {
            packet_count.write(meta.bucket, count + 1);
            mark_to_pass();
        } else {
            if (count == BUDGET) {
                // The first refused packet: its headers go to the monitor.
                packet_count.write(meta.bucket, count + 1);
                truncate(HEADER_BYTES);
                std.output_port = MONITOR_PORT;
                std.output_action = ubpf_action.REDIRECT;
            } else {
                mark_to_drop();
            }
        }
    }
}

control LimiterDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

ubpf(LimiterParser(), LimiterPipe(), LimiterDeparser()) main;
