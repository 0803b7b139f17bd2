// A route cache in registers, filled by resubmission.
// The fast path looks the destination address up in a direct-mapped cache
// of 256 slots (slot = crc16(dst) % 256; registers cache_dst and
// cache_port, port stored + 1 so that 0 means empty). On a hit the packet
// is forwarded with the cached port. On a miss the slow path does the
// longest-prefix lookup, stores the result in the slot (evicting whatever
// was there) and resubmits the packet, which then hits. A resubmitted
// packet that misses again, or a destination without a route, is dropped.
// The cache is not told about route changes: the control plane flushes it
// with register_reset. Forwarded packets get TTL-1, a new checksum and the
// port's MACs from port_macs. Fast and slow path passes are counted.
#include <core.p4>
#include <v1model.p4>

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
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
    bit<32> src;
    bit<32> dst;
}

struct headers_t {
    ethernet_h eth;
    ipv4_h     ipv4;
}

struct meta_t {
    @field_list(1)
    bit<1>  resubmitted;
    bit<32> slot;
    bit<16> lpm_port;
}

parser RcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control RcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<32>>(256) cache_dst;
    register<bit<16>>(256) cache_port;
    counter(2, CounterType.packets) passes;    // 0: fast path, 1: slow path

    action drop() {
        mark_to_drop(sm);
    }

    action set_port(bit<16> port) {
        meta.lpm_port = port;
    }
    table routes {
        key = { hdr.ipv4.dst : lpm; }
        actions = { set_port; drop; }
        default_action = drop();
    }

    action set_macs(bit<48> smac, bit<48> dmac) {
        hdr.eth.src = smac;
        hdr.eth.dst = dmac;
    }
    table port_macs {
        key = { sm.egress_spec : exact; }
        actions = { set_macs; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (!hdr.ipv4.isValid() || hdr.ipv4.ttl <= 1) {
            drop();
            return;
        }
        hash(meta.slot, HashAlgorithm.crc16, 32w0, { hdr.ipv4.dst }, 32w256);
        bit<32> cached_dst;
        bit<16> cached_port;
        cache_dst.read(cached_dst, meta.slot);
        cache_port.read(cached_port, meta.slot);

        if (cached_port != 0 && cached_dst == hdr.ipv4.dst) {
            passes.count(0);
            sm.egress_spec = (bit<9>)(cached_port - 1);
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            port_macs.apply();
        } else if (meta.resubmitted == 1) {
            drop();
        } else {
            passes.count(1);
            if (routes.apply().hit) {
                cache_dst.write(meta.slot, hdr.ipv4.dst);
                cache_port.write(meta.slot, meta.lpm_port + 1);
                meta.resubmitted = 1;
                resubmit_preserving_field_list(1);
            }
        }
    }
}

control RcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RcCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control RcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(RcParser(), RcVerify(), RcIngress(), RcEgress(), RcCompute(),
         RcDeparser()) main;
