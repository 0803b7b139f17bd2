// STF rule (v1model register + hash): inside one action, the register
// index is computed by hash(crc16, base 0, {key}, max 5) = crc16(key) % 5;
// read gives the cell's value before this packet, write stores old + inc
// (wrapping at 16 bits), and a second read after the write in the same
// action sees the new value. Keys that hash to the same index share a cell.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> key;
    bit<16> inc;
    bit<8>  idx;   // written: the hashed index
    bit<16> old;   // written: the cell before the write
    bit<16> now;   // written: the cell read back after the write
}

struct headers_t {
    h_t h;
}

struct meta_t {
    bit<32> idx;
    bit<16> old;
    bit<16> now;
}

parser RhParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RhVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RhIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<16>>(5) cells;

    action bump() {
        hash(meta.idx, HashAlgorithm.crc16, 32w0, { hdr.h.key }, 32w5);
        cells.read(meta.old, meta.idx);
        cells.write(meta.idx, meta.old + hdr.h.inc);
        cells.read(meta.now, meta.idx);
        hdr.h.idx = (bit<8>)meta.idx;
        hdr.h.old = meta.old;
        hdr.h.now = meta.now;
    }

    apply {
        bump();
        sm.egress_spec = 3;
    }
}

control RhEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RhCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RhDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RhParser(), RhVerify(), RhIngress(), RhEgress(), RhCompute(),
         RhDeparser()) main;
