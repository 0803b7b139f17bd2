// Language test (P4 1.2.2+): switch statements on bit<>, int<>, enum,
// serializable enum and error values, with constant labels, fall-through
// labels, and a final default label.
#include <core.p4>

enum Mode { Idle, Active, Draining }
enum bit<8> Kind { Small = 1, Medium = 2, Large = 3 }

control SwitchValues(in bit<16> etype, in int<8> delta, in Mode mode,
                     in Kind kind, in error err, inout bit<8> out_code) {
    const bit<16> ETH_ARP = 0x0806;

    apply {
        switch (etype) {
            0x0800:                 // falls through
            16w0x86DD: { out_code = 1; }
            ETH_ARP:   { out_code = 2; }
            0x8100 + 1: { out_code = 3; }
            default:   { out_code = 0; }
        }

        switch (delta) {
            -1: { out_code = out_code - 1; }
            1:  { out_code = out_code + 1; }
        }

        switch (mode) {
            Mode.Idle:     { out_code = out_code | 0x10; }
            Mode.Active:
            Mode.Draining: { out_code = out_code | 0x20; }
        }

        switch (kind) {
            Kind.Small:  { out_code = out_code + 1; }
            Kind.Large:  { out_code = out_code + 3; }
            default:     { }
        }

        switch (err) {
            error.NoError:        { }
            error.PacketTooShort: { out_code = 0xFE; }
            default:              { out_code = 0xFF; }
        }
    }
}
