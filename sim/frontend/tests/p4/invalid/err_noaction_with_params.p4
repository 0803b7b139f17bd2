// Invalid: the program's own NoAction takes a parameter, so it cannot be
// the default of a table without one (code E0406).
action NoAction(bit<8> unused) { }

control C(inout bit<8> x) {
    action set() { x = 1; }
    table t { // error: E0406
        actions = { set; }
    }
    apply { t.apply(); }
}
