// Invalid: applying a table that was never declared (code E0100).
#include <core.p4>

control C(inout bit<32> addr) {
    action a() { }
    table routes {
        key = { addr : exact; }
        actions = { a; }
    }
    apply {
        routes.apply();
        route_cache.apply(); // error: E0100
    }
}
