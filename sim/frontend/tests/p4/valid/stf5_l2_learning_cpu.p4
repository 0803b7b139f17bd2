// Learning Ethernet switch with a controller port.
// - Source learning: a frame whose source MAC is unknown (smac miss), or
//   known on another port (a station move), is copied to the CPU by an
//   ingress-to-egress clone (session 100); egress puts a packet_in header
//   {ingress port, reason} in front of the copy. The ingress port and
//   reason reach the copy through a @field_list.
// - Forwarding: a known unicast destination (dmac) goes out its port,
//   unless that is the port it came in on (filtered); unknown unicast,
//   broadcast and multicast destinations are flooded with multicast group
//   1, and egress removes the copy going back out of the arrival port.
#include <core.p4>
#include <v1model.p4>

const bit<32> CPU_SESSION = 100;
const bit<16> FLOOD_GROUP = 1;
const bit<8>  REASON_NEW_SOURCE = 1;
const bit<8>  REASON_STATION_MOVE = 2;
const bit<32> INSTANCE_INGRESS_CLONE = 1;
const bit<32> INSTANCE_REPLICATION = 5;

header packet_in_h {
    bit<16> ingress_port;
    bit<8>  reason;
    bit<8>  reserved;
}

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

struct headers_t {
    packet_in_h packet_in;
    ethernet_h  eth;
}

struct meta_t {
    @field_list(1)
    bit<9> learn_port;
    @field_list(1)
    bit<8> learn_reason;
}

parser L2Parser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control L2Verify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control L2Ingress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }

    action send_to_cpu(bit<8> reason) {
        meta.learn_port = sm.ingress_port;
        meta.learn_reason = reason;
        clone_preserving_field_list(CloneType.I2E, CPU_SESSION, 1);
    }
    action learn() {
        send_to_cpu(REASON_NEW_SOURCE);
    }
    action known_source(bit<9> port) {
        if (port != sm.ingress_port) {
            send_to_cpu(REASON_STATION_MOVE);
        }
    }
    table smac {
        key = { hdr.eth.src : exact; }
        actions = { known_source; learn; }
        default_action = learn();
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }
    action flood() {
        sm.mcast_grp = FLOOD_GROUP;
    }
    table dmac {
        key = { hdr.eth.dst : exact; }
        actions = { forward; flood; }
        default_action = flood();
    }

    apply {
        if (!hdr.eth.isValid()) {
            drop();
            return;
        }
        smac.apply();
        if (hdr.eth.dst[40:40] == 1) {
            flood();            // broadcast or multicast
        } else {
            dmac.apply();
            if (sm.mcast_grp == 0 && sm.egress_spec == sm.ingress_port) {
                drop();         // the destination is on the arrival segment
            }
        }
    }
}

control L2Egress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == INSTANCE_INGRESS_CLONE) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = (bit<16>)meta.learn_port;
            hdr.packet_in.reason = meta.learn_reason;
            hdr.packet_in.reserved = 0;
        } else if (sm.instance_type == INSTANCE_REPLICATION &&
                   sm.egress_port == sm.ingress_port) {
            mark_to_drop(sm);
        }
    }
}

control L2Compute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control L2Deparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.packet_in);
        pkt.emit(hdr.eth);
    }
}

V1Switch(L2Parser(), L2Verify(), L2Ingress(), L2Egress(), L2Compute(),
         L2Deparser()) main;
