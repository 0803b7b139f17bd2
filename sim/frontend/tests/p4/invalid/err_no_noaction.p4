// Invalid: no core.p4, so no NoAction for the table without a default
// action (code E0406).
match_kind { exact }

control C(in bit<8> k, inout bit<8> x) {
    action set() { x = 1; }
    table t { // error: E0406
        key = { k : exact; }
        actions = { set; }
    }
    apply { t.apply(); }
}
