//! Key-value semantics: exact, ternary and lpm for given widths.

use janus_stf::*;

fn key(text: &str) -> KeyValue {
    let stf = parse(&format!("add t f:{text} a()")).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    match &stf.commands[0].item {
        Command::Add { keys, .. } => keys[0].value.clone(),
        _ => unreachable!(),
    }
}

#[test]
fn exact_values() {
    assert_eq!(key("10").exact(8).unwrap(), vec![10]);
    assert_eq!(key("0x0a").exact(16).unwrap(), vec![0, 10]);
    assert_eq!(key("0b1010").exact(4).unwrap(), vec![10]);
    assert_eq!(key("0x1ff").exact(9).unwrap(), vec![1, 0xff]);
    // Leading zeros do not make a value too wide.
    assert_eq!(key("0x0000ff").exact(8).unwrap(), vec![0xff]);
    assert!(matches!(
        key("256").exact(8),
        Err(ValueError::TooWide {
            needed: 9,
            width: 8,
            ..
        })
    ));
    assert!(matches!(
        key("0x1*").exact(8),
        Err(ValueError::DontCare { .. })
    ));
    assert!(matches!(
        key("10/8").exact(8),
        Err(ValueError::UnexpectedPrefix { len: 8, .. })
    ));
}

#[test]
fn exact_wide_decimal_and_hex_agree() {
    // 2^127 + 12345 written both ways, into a 128-bit field.
    let v: u128 = (1u128 << 127) + 12345;
    let dec = key(&v.to_string()).exact(128).unwrap();
    let hex = key(&format!("0x{v:032x}")).exact(128).unwrap();
    assert_eq!(dec, hex);
    assert_eq!(dec, v.to_be_bytes().to_vec());
    // Wider than 128 bits works too.
    let big = format!("0x1{}", "0".repeat(40)); // 2^160
    let b = key(&big).exact(161).unwrap();
    assert_eq!(b.len(), 21);
    assert_eq!(b[0], 1);
}

#[test]
fn ternary_mask_from_digits() {
    let t = key("0x0a**").ternary(16).unwrap();
    assert_eq!((t.value, t.mask), (vec![0x0a, 0x00], vec![0xff, 0x00]));
    // The mask covers only the digits written.
    let t = key("0x1").ternary(16).unwrap();
    assert_eq!((t.value, t.mask), (vec![0x00, 0x01], vec![0x00, 0x0f]));
    // Binary: per bit.
    let t = key("0b1*0*").ternary(8).unwrap();
    assert_eq!((t.value, t.mask), (vec![0b1000], vec![0b1010]));
    // All don't-care.
    let t = key("0x****").ternary(16).unwrap();
    assert_eq!((t.value, t.mask), (vec![0, 0], vec![0, 0]));
    // Mask digits above a 9-bit field are dropped.
    let t = key("0x1ff").ternary(9).unwrap();
    assert_eq!((t.value, t.mask), (vec![0x01, 0xff], vec![0x01, 0xff]));
    // 128-bit ternary.
    let t = key("0x2001****************************")
        .ternary(128)
        .unwrap();
    assert_eq!(&t.value[..2], &[0x20, 0x01]);
    assert_eq!(&t.mask[..3], &[0xff, 0xff, 0x00]);
}

#[test]
fn ternary_errors() {
    assert!(matches!(
        key("10").ternary(8),
        Err(ValueError::DecimalTernary { .. })
    ));
    assert!(matches!(
        key("0x10/4").ternary(8),
        Err(ValueError::UnexpectedPrefix { .. })
    ));
    assert!(matches!(
        key("0x1ff").ternary(8),
        Err(ValueError::TooWide { .. })
    ));
    let msg = key("10").ternary(8).unwrap_err().to_string();
    assert!(msg.contains("hex (`0x..`) or binary (`0b..`)"), "{msg}");
}

#[test]
fn lpm_with_length() {
    let l = key("0x0a000000/8").lpm(32).unwrap();
    assert_eq!((l.value, l.prefix_len), (vec![10, 0, 0, 0], 8));
    let l = key("167772160/8").lpm(32).unwrap();
    assert_eq!((l.value, l.prefix_len), (vec![10, 0, 0, 0], 8));
    let l = key("0/0").lpm(32).unwrap();
    assert_eq!((l.value, l.prefix_len), (vec![0, 0, 0, 0], 0));
    assert!(matches!(
        key("0/33").lpm(32),
        Err(ValueError::PrefixTooLong { len: 33, width: 32 })
    ));
}

#[test]
fn lpm_from_trailing_stars() {
    let l = key("0x0a0000**").lpm(32).unwrap();
    assert_eq!((l.value, l.prefix_len), (vec![10, 0, 0, 0], 24));
    let l = key("0b101*****").lpm(8).unwrap();
    assert_eq!((l.value, l.prefix_len), (vec![0b1010_0000], 3));
    // No stars: every digit counts.
    let l = key("0x0a000001").lpm(32).unwrap();
    assert_eq!(l.prefix_len, 32);
    // The reference quirk: digits are right-aligned, the prefix counted in digits.
    let l = key("0x0a**").lpm(32).unwrap();
    assert_eq!((l.value, l.prefix_len), (vec![0, 0, 0x0a, 0], 8));
    // IPv6 /32 from stars.
    let l = key("0x20010db8************************").lpm(128).unwrap();
    assert_eq!(l.prefix_len, 32);
    assert_eq!(&l.value[..4], &[0x20, 0x01, 0x0d, 0xb8]);
}

#[test]
fn lpm_errors() {
    assert!(matches!(
        key("10").lpm(32),
        Err(ValueError::DecimalLpmNeedsLength { .. })
    ));
    assert!(matches!(
        key("0x*a").lpm(8),
        Err(ValueError::LpmDontCareNotTrailing { .. })
    ));
    assert!(matches!(
        key("0x123456789").lpm(32),
        Err(ValueError::PrefixTooLong { len: 36, width: 32 })
    ));
}

#[test]
fn key_value_accessors() {
    assert_eq!(key("0x0a**").number().written_bits(), Some(16));
    assert_eq!(key("12/4").number().radix(), Radix::Decimal);
}

#[test]
fn action_args_to_bytes() {
    let stf = parse("add t f:1 set(mac:0x000102030405, port:511)").unwrap();
    let Command::Add { action, .. } = &stf.commands[0].item else {
        panic!()
    };
    assert_eq!(
        action.args[0].value.to_be_bytes(48).unwrap(),
        vec![0, 1, 2, 3, 4, 5]
    );
    assert_eq!(action.args[1].value.to_be_bytes(9).unwrap(), vec![1, 0xff]);
    assert!(action.args[1].value.to_be_bytes(8).is_err());
}
