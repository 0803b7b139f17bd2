// Language test (P4 1.2.4): non-const `entries` that the control plane may
// later modify, individually `const` entries, explicit entry priorities
// (`priority = N:`), and the largest_priority_wins / priority_delta
// properties.
#include <core.p4>

header ip_t {
    bit<32> src;
    bit<32> dst;
    bit<8>  proto;
}

control MutableEntries(inout ip_t ip, inout bit<8> verdict) {
    action permit() {
        verdict = 1;
    }
    action deny() {
        verdict = 0;
    }
    action rewrite(bit<32> new_dst) {
        ip.dst = new_dst;
    }

    // Exact table: initial entries that may be removed or changed later.
    table redirects {
        key = { ip.dst : exact; }
        actions = { rewrite; NoAction; }
        default_action = NoAction();
        entries = {
            32w0x0A000001 : rewrite(32w0x0A000101);
            const 32w0x0A000002 : rewrite(32w0x0A000102);
        }
    }

    // Ternary ACL with explicit priorities; larger numbers win.
    table acl {
        key = {
            ip.src   : ternary;
            ip.proto : ternary;
        }
        actions = { permit; deny; }
        default_action = permit();
        largest_priority_wins = true;
        priority_delta = 10;
        entries = {
            const priority = 100 : (0x0A000000 &&& 0xFF000000, 6) : deny();
                  priority = 90  : (0x0A000000 &&& 0xFF000000, _) : permit();
                  priority = 10  : (_, 17)                        : deny();
        }
    }

    // Smallest priority wins, priorities assigned by the compiler.
    table acl2 {
        key = { ip.dst : ternary; }
        actions = { permit; deny; }
        default_action = deny();
        largest_priority_wins = false;
        entries = {
            0xC0A80000 &&& 0xFFFF0000 : permit();
            _                         : deny();
        }
    }

    apply {
        redirects.apply();
        acl.apply();
        if (verdict == 1) {
            acl2.apply();
        }
    }
}
