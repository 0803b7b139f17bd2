//! Error positions and messages.

use janus_stf::*;

/// The single error of a one-line input, as "column: message".
fn err(text: &str) -> (usize, String) {
    let errors = parse(text).expect_err(text);
    assert_eq!(errors.len(), 1, "{text:?}: {errors:?}");
    assert_eq!(errors[0].line, 1);
    (errors[0].column, errors[0].message.clone())
}

fn err_contains(text: &str, column: usize, needle: &str) {
    let (col, msg) = err(text);
    assert!(
        msg.contains(needle),
        "{text:?}: message {msg:?} lacks {needle:?}"
    );
    assert_eq!(col, column, "{text:?}: {msg}");
}

#[test]
fn display_format() {
    let e = StfError {
        line: 3,
        column: 7,
        message: "oops".into(),
    };
    assert_eq!(e.to_string(), "line 3, column 7: oops");
}

#[test]
fn missing_colon_after_key() {
    err_contains(
        "add t hdr.ipv4.dst 0x1 a()",
        20,
        "expected `:` after key field `hdr.ipv4.dst`, found `0x1`",
    );
    err_contains(
        "add t hdr.ipv4.dst",
        19,
        "expected `:` after key field `hdr.ipv4.dst`",
    );
    err_contains(
        "add t f:1 g",
        12,
        "or `(` if `g` is the action: an action call needs parentheses",
    );
}

#[test]
fn packet_errors() {
    err_contains("packet 0 abc", 10, "odd number of hex digits (3)");
    err_contains("packet 0 ab c", 10, "odd number of hex digits (3)");
    err_contains("packet 0", 9, "`packet` needs data");
    err_contains("packet 0 # c", 9, "`packet` needs data");
    err_contains("packet", 7, "expected a port number after `packet`");
    err_contains("packet x 00", 8, "expected a decimal port number");
    err_contains(
        "packet 0 0a*b",
        12,
        "`*` (any nibble) is only allowed in `expect` data",
    );
    err_contains(
        "packet 0 0a $",
        13,
        "`$` (exact length) is only allowed in `expect` data",
    );
    err_contains("packet 0 0x0a0b", 10, "drop the `0x` prefix");
    err_contains("packet 0 0g", 11, "invalid character `g` in `packet` data");
    err_contains(
        "packet 99999999999 00",
        8,
        "port number `99999999999` is too large",
    );
    err_contains("packet 0x1 00", 8, "port numbers are decimal");
    err_contains("packet* 0 00", 7, "expected a space and a port number");
}

#[test]
fn expect_errors() {
    err_contains(
        "expect 1 0a $ 0b",
        15,
        "the exact-length marker must end the data",
    );
    err_contains(
        "expect 1 0a $ $",
        15,
        "the exact-length marker must end the data",
    );
    err_contains("expect 1 zz", 10, "expected hex digits, `*` or a final `$`");
    err_contains("expect", 7, "expected a port number after `expect`");
}

#[test]
fn unknown_commands() {
    err_contains(
        "expct 1 00",
        1,
        "unknown command `expct` (did you mean `expect`?)",
    );
    err_contains("table_add t a 1 => 2", 1, "simple_switch_CLI");
    err_contains("42", 1, "expected a command");
    err_contains("  (add)", 3, "expected a command");
    err_contains("frobnicate", 1, "unknown command `frobnicate`");
}

#[test]
fn add_errors() {
    err_contains("add", 4, "expected a table name after `add`");
    err_contains("add t", 6, "expected a key `field:value` after table `t`");
    err_contains("add t f:0x1*->0x20 a()", 9, "cannot be used in a range");
    err_contains("add t f:1-> a()", 13, "the last value of the range");
    err_contains(
        "add t f:1",
        10,
        "expected another key `field:value` or the action call",
    );
    err_contains("add t f: a()", 10, "expected a value after `f:`");
    err_contains(
        "add t f:0x a()",
        9,
        "needs at least one hex digit after `0x`",
    );
    err_contains("add t f:0x1g a()", 9, "invalid hex digit `g`");
    err_contains("add t f:0b12 a()", 9, "invalid binary digit `2`");
    err_contains("add t f:1* a()", 9, "don't-care digits `*` need a hex");
    err_contains("add t f:12ab a()", 9, "is not a number");
    err_contains(
        "add t f:0x0a**/16 a()",
        9,
        "cannot be combined with a `/len`",
    );
    err_contains(
        "add t f:0x0a/x a()",
        14,
        "expected a decimal prefix length after `/`",
    );
    err_contains(
        "add t f:0x0a/0x8 a()",
        14,
        "expected a decimal prefix length after `/`",
    );
    err_contains(
        "add t 0x10 f:1 a()",
        7,
        "a priority must be a decimal number",
    );
    err_contains("add t 99999999999999999999 f:1 a()", 7, "too large");
    err_contains(
        "add t f:1 a(",
        13,
        "expected an action parameter `name:value`",
    );
    err_contains(
        "add t f:1 a(x)",
        14,
        "expected `:` after action parameter `x`",
    );
    err_contains(
        "add t f:1 a(x:)",
        15,
        "expected a value for action parameter `x`",
    );
    err_contains(
        "add t f:1 a(x:1",
        16,
        "expected `,` or `)` after the value of `x`",
    );
    err_contains(
        "add t f:1 a(x:1 y:2)",
        17,
        "expected `,` or `)` after the value of `x`",
    );
    err_contains("add t f:1 a(x:1,)", 17, "expected an action parameter");
    err_contains("add t f:1 a(x:0x1*)", 15, "allowed only in key values");
    err_contains(
        "add t f:1 a() g:2",
        15,
        "unexpected `g` after the end of the `add` command",
    );
    err_contains("add t f:1 a() =", 16, "expected an entry name after `=`");
    err_contains("add t f:1 a() = x y", 19, "unexpected `y`");
    err_contains("add t f:0x1&&&0xf a()", 12, "no `&&&` masks");
    err_contains("add t f:-1 a()", 9, "cannot be negative");
    err_contains("add t 1f:1 a()", 7, "is not a number");
}

#[test]
fn name_errors() {
    err_contains(
        "add t hdr.stk[x].f:1 a()",
        15,
        "a decimal index inside `[ ]`",
    );
    err_contains("add t hdr[x].f:1 a()", 11, "a decimal index inside `[ ]`");
    err_contains("add t hdr[1.f:1 a()", 12, "`]` to close the index");
    err_contains("add t hdr..f:1 a()", 11, "expected a name after `hdr.`");
    err_contains("add t hdr.1f:1 a()", 11, "names cannot start with a digit");
    err_contains("add \"t f:1 a()", 5, "unterminated quoted name");
    err_contains("add \"\" f:1 a()", 5, "empty quoted name");
}

#[test]
fn setdefault_errors() {
    err_contains("setdefault t a", 15, "expected `(` after action `a`");
    err_contains("setdefault t", 13, "expected an action call");
    err_contains("setdefault", 11, "expected a table name after `setdefault`");
}

#[test]
fn check_counter_errors() {
    err_contains("check_counter c", 16, "expected `(` after counter `c`");
    err_contains("check_counter c()", 17, "expected a counter index");
    err_contains("check_counter c(1", 18, "expected `)`");
    err_contains(
        "check_counter c(1) frames == 1",
        20,
        "expected `packets` or `bytes`",
    );
    err_contains("check_counter c(1) packets = 1", 28, "did you mean `==`?");
    err_contains(
        "check_counter c(1) packets ==",
        30,
        "expected a number to compare",
    );
    err_contains("check_counter c(1) packets !", 28, "did you mean `!=`?");
}

#[test]
fn direct_command_errors() {
    err_contains("remove 3", 8, "only `remove all` is supported");
    err_contains("remove", 7, "expected `all`");
    err_contains(
        "wait 3",
        6,
        "unexpected `3` after the end of the `wait` command",
    );
    err_contains("mirroring_add 1", 16, "expected an egress port");
    err_contains(
        "mirroring_add 1 x",
        17,
        "expected an egress port, found `x`",
    );
    err_contains("mc_mgrp_create 4294967296", 16, "too large");
    err_contains("mc_node_create 0", 17, "expected at least one port");
    err_contains("mc_node_associate 1", 20, "expected a node handle");
    err_contains("counter_write c 1 2", 20, "expected a byte count");
    err_contains("register_write r 1 0x**", 20, "allowed only in key values");
    err_contains(
        "meter_set_rates m 0",
        20,
        "expected a meter rate `rate:burst`",
    );
    err_contains(
        "meter_set_rates m 0 1",
        22,
        "expected `:` between the rate and the burst size",
    );
    err_contains(
        "meter_set_rates m 0 1.:2",
        23,
        "expected decimal digits after `.`",
    );
    err_contains(
        "meter_set_rates m 0 0x1.5:2",
        21,
        "must be written in decimal",
    );
    err_contains("meter_array_set_rates m 1:2 3", 30, "expected `:`");
}

#[test]
fn all_errors_reported_one_per_line() {
    let text = "packet 0 abc\nadd t f:1 a()\nbogus\n\nexpect x\nadd t hdr 1 a()\n";
    let errors = parse(text).unwrap_err();
    let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![1, 3, 5, 6]);
    let (stf, errors2) = parse_partial(text);
    assert_eq!(errors, errors2);
    assert_eq!(stf.commands.len(), 1);
    assert_eq!(stf.commands[0].line, 2);
}

#[test]
fn columns_count_characters() {
    // `é` is one column, though two bytes.
    let (col, msg) = err("add \"é\" f:1 a() ?");
    assert_eq!(col, 17, "{msg}");
    let (col, _) = err("\tpacket 0 abc");
    assert_eq!(col, 11);
}

#[test]
fn control_characters_are_shown_escaped() {
    let (_, msg) = err("add t f:1 a()\u{1}");
    assert!(msg.contains("U+0001"), "{msg}");
    let (_, msg) = err("packet 0 00\u{7f}");
    assert!(msg.contains("U+007F"), "{msg}");
}
