//! The P4Runtime server, driven in-process over gRPC by the generated
//! tonic client: pipeline set-up, arbitration, table writes and reads,
//! per-update errors, and packets through the switch after a write.
//! Every wait is bounded by a timeout.

mod common;

use common::*;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_wire::checksum::internet_checksum;
use p4::field_match::FieldMatchType as F;
use std::path::Path;
use tonic::Code;
use tonic::transport::Channel;

/// The program's source (optionally edited), its pipeline file and P4Info.
fn program(edit: impl Fn(String) -> String) -> p4::ForwardingPipelineConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../p4/examples/l3_router_acl.p4");
    let text = edit(std::fs::read_to_string(&path).expect("the example program"));
    pipeline_config(path.to_str().unwrap(), text, Some(42))
}

fn router() -> p4::ForwardingPipelineConfig {
    program(|s| s)
}

/// The router with a writable ACL (its entries no longer const).
fn router_writable_acl() -> p4::ForwardingPipelineConfig {
    program(|s| s.replace("const entries = {", "entries = {"))
}

fn field(id: u32, m: F) -> p4::FieldMatch {
    p4::FieldMatch {
        field_id: id,
        field_match_type: Some(m),
    }
}

fn lpm(value: &[u8], len: i32) -> F {
    F::Lpm(p4::field_match::Lpm {
        value: value.to_vec(),
        prefix_len: len,
    })
}

fn ternary(value: &[u8], mask: &[u8]) -> F {
    F::Ternary(p4::field_match::Ternary {
        value: value.to_vec(),
        mask: mask.to_vec(),
    })
}

async fn read(c: &mut P4RuntimeClient<Channel>, filter: p4::TableEntry) -> Vec<p4::TableEntry> {
    let entities = vec![p4::Entity {
        entity: Some(p4::entity::Entity::TableEntry(filter)),
    }];
    read_entities(c, entities)
        .await
        .expect("read")
        .into_iter()
        .map(|e| match e.entity {
            Some(p4::entity::Entity::TableEntry(t)) => t,
            other => panic!("not a table entry: {other:?}"),
        })
        .collect()
}

/// A UDP packet from 10.1.1.1 to `dst` (port 8080), IPv4 checksum right.
fn udp_to(dst: [u8; 4]) -> Vec<u8> {
    let mut ip = vec![
        0x45, 0, 0, 0x24, 0, 1, 0, 0, 0x40, 0x11, 0, 0, 10, 1, 1, 1, dst[0], dst[1], dst[2], dst[3],
    ];
    let folded = internet_checksum(&ip);
    ip[10..12].copy_from_slice(&folded.to_be_bytes());
    let mut p = vec![0xaa; 6];
    p.extend_from_slice(&[2, 0, 0, 0, 0, 1, 0x08, 0x00]);
    p.extend_from_slice(&ip);
    p.extend_from_slice(&[0x12, 0x34, 0x1f, 0x90, 0, 0x10, 0, 0]);
    p.extend_from_slice(&[0xca, 0xfe, 0xba, 0xbe, 0xca, 0xfe, 0xba, 0xbe]);
    p
}

/// The ports a packet to `dst` leaves by.
fn route(s: &Server, dst: [u8; 4]) -> Vec<u32> {
    s.switch.with_switch(|sw| {
        let sw = sw.expect("a pipeline is set");
        sw.process(1, &udp_to(dst))
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capabilities_and_pipeline_config() {
    use p4::get_forwarding_pipeline_config_request::ResponseType;
    use p4::set_forwarding_pipeline_config_request::Action;
    let s = start().await;
    let mut c = client(&s).await;
    let caps = within(c.capabilities(p4::CapabilitiesRequest { device_id: DEVICE }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(caps.p4runtime_api_version, "1.6.0");

    let get = |kind: ResponseType| p4::GetForwardingPipelineConfigRequest {
        device_id: DEVICE,
        response_type: kind as i32,
    };
    fails_with(
        within(c.get_forwarding_pipeline_config(get(ResponseType::All))).await,
        Code::FailedPrecondition,
    );

    // Not arbitrated: refused.
    fails_with(
        set_pipeline(&mut c, 1, router(), Action::VerifyAndCommit).await,
        Code::PermissionDenied,
    );

    let mut stream = Stream::open(&mut c).await;
    stream.arbitrate(1).await;
    assert_eq!(stream.answer().await.unwrap(), (Code::Ok, 1));

    // A P4Info that does not describe the program.
    let mut wrong = router();
    let info = wrong.p4info.as_mut().unwrap();
    info.tables[0].preamble.as_mut().unwrap().name = "RouterIngress.elsewhere".into();
    fails_with(
        set_pipeline(&mut c, 1, wrong, Action::Verify).await,
        Code::InvalidArgument,
    );
    let mut wrong = router();
    let two_params = wrong
        .p4info
        .as_mut()
        .unwrap()
        .actions
        .iter_mut()
        .find(|a| a.params.len() > 1)
        .expect("an action with two parameters");
    two_params.params[1].bitwidth = 10;
    fails_with(
        set_pipeline(&mut c, 1, wrong, Action::VerifyAndCommit).await,
        Code::InvalidArgument,
    );
    let mut bad = router();
    bad.p4_device_config = b"control C() { apply { x = ; } }".to_vec();
    fails_with(
        set_pipeline(&mut c, 1, bad, Action::Verify).await,
        Code::InvalidArgument,
    );

    // VERIFY checks but does not commit.
    set_pipeline(&mut c, 1, router(), Action::Verify)
        .await
        .unwrap();
    fails_with(
        within(c.get_forwarding_pipeline_config(get(ResponseType::All))).await,
        Code::FailedPrecondition,
    );

    // P4 source text works as a device config too.
    let mut source = router();
    source.p4_device_config = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../p4/examples/l3_router_acl.p4"),
    )
    .unwrap();
    set_pipeline(&mut c, 1, source, Action::Verify)
        .await
        .unwrap();

    set_pipeline(&mut c, 1, router(), Action::VerifyAndCommit)
        .await
        .unwrap();
    let want = router();
    let got = within(c.get_forwarding_pipeline_config(get(ResponseType::P4infoAndCookie)))
        .await
        .unwrap()
        .into_inner()
        .config
        .unwrap();
    assert_eq!(got.p4info, want.p4info);
    assert_eq!(got.cookie.unwrap().cookie, 42);
    assert!(got.p4_device_config.is_empty());
    let got = within(c.get_forwarding_pipeline_config(get(ResponseType::CookieOnly)))
        .await
        .unwrap()
        .into_inner()
        .config
        .unwrap();
    assert!(got.p4info.is_none() && got.p4_device_config.is_empty());
    let got = within(c.get_forwarding_pipeline_config(get(ResponseType::All)))
        .await
        .unwrap()
        .into_inner()
        .config
        .unwrap();
    assert_eq!(got.p4_device_config, want.p4_device_config);

    // VERIFY_AND_SAVE then COMMIT.
    set_pipeline(&mut c, 1, router_writable_acl(), Action::VerifyAndSave)
        .await
        .unwrap();
    set_pipeline(&mut c, 1, router(), Action::Commit)
        .await
        .unwrap();
    let got = within(c.get_forwarding_pipeline_config(get(ResponseType::P4infoAndCookie)))
        .await
        .unwrap()
        .into_inner()
        .config
        .unwrap();
    assert!(!got.p4info.unwrap().tables.iter().any(|t| t.is_const_table));
    fails_with(
        set_pipeline(&mut c, 1, router(), Action::Commit).await,
        Code::FailedPrecondition,
    );
    fails_with(
        set_pipeline(&mut c, 1, router(), Action::ReconcileAndCommit).await,
        Code::InvalidArgument,
    );

    // Another device id.
    let e = within(c.capabilities(p4::CapabilitiesRequest { device_id: DEVICE }))
        .await
        .map(|_| ());
    assert!(e.is_ok());
    fails_with(
        within(
            c.get_forwarding_pipeline_config(p4::GetForwardingPipelineConfigRequest {
                device_id: 7,
                response_type: 0,
            }),
        )
        .await,
        Code::NotFound,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arbitration_primary_and_backup() {
    let s = start().await;
    let (mut a, mut a_stream) = primary_with(&s, 5, router()).await;
    let info = router().p4info.unwrap();
    let id = ids(&info);
    let entry = |last: u8| p4::TableEntry {
        table_id: id("RouterIngress.ipv4_lpm"),
        r#match: vec![field(1, lpm(&[10, 9, last, 0], 24))],
        action: action(id("RouterIngress.drop"), &[]),
        ..Default::default()
    };

    // A lower election id: a backup.
    let mut b = client(&s).await;
    let mut b_stream = Stream::open(&mut b).await;
    b_stream.arbitrate(3).await;
    assert_eq!(b_stream.answer().await.unwrap(), (Code::AlreadyExists, 5));
    fails_with(
        write(&mut b, 3, vec![update(p4::update::Type::Insert, entry(1))]).await,
        Code::PermissionDenied,
    );
    // Claiming the primary's id without holding the stream: refused too.
    fails_with(
        write(&mut b, 4, vec![update(p4::update::Type::Insert, entry(1))]).await,
        Code::PermissionDenied,
    );
    write(&mut a, 5, vec![update(p4::update::Type::Insert, entry(1))])
        .await
        .unwrap();

    // A third controller reusing the primary's election id: refused.
    let mut c = client(&s).await;
    let mut c_stream = Stream::open(&mut c).await;
    c_stream.arbitrate(5).await;
    fails_with(c_stream.answer().await, Code::InvalidArgument);

    // The backup takes over with a higher id; both are told.
    b_stream.arbitrate(9).await;
    assert_eq!(b_stream.answer().await.unwrap(), (Code::Ok, 9));
    assert_eq!(a_stream.answer().await.unwrap(), (Code::AlreadyExists, 9));
    fails_with(
        write(&mut a, 5, vec![update(p4::update::Type::Insert, entry(2))]).await,
        Code::PermissionDenied,
    );
    write(&mut b, 9, vec![update(p4::update::Type::Insert, entry(2))])
        .await
        .unwrap();

    // The primary leaves: the backup hears there is no primary.
    drop(b_stream);
    assert_eq!(a_stream.answer().await.unwrap(), (Code::NotFound, 9));
    fails_with(
        write(&mut a, 5, vec![update(p4::update::Type::Insert, entry(3))]).await,
        Code::PermissionDenied,
    );
    // Reclaiming with the highest id seen works.
    a_stream.arbitrate(9).await;
    assert_eq!(a_stream.answer().await.unwrap(), (Code::Ok, 9));
    write(&mut a, 9, vec![update(p4::update::Type::Insert, entry(3))])
        .await
        .unwrap();
    assert_eq!(
        read(
            &mut a,
            p4::TableEntry {
                table_id: id("RouterIngress.ipv4_lpm"),
                ..Default::default()
            }
        )
        .await
        .len(),
        3
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lpm_entries_route_packets() {
    use p4::update::Type::{Delete, Insert, Modify};
    let s = start().await;
    let (mut c, _stream) = primary_with(&s, 1, router()).await;
    let info = router().p4info.unwrap();
    let id = ids(&info);
    let lpm_table = id("RouterIngress.ipv4_lpm");
    let set_nexthop = id("RouterIngress.set_nexthop");
    let route_entry = |port: &[u8]| p4::TableEntry {
        table_id: lpm_table,
        // Non-canonical (zero-padded) bytes are accepted.
        r#match: vec![field(1, lpm(&[10, 2, 0, 0], 16))],
        action: action(set_nexthop, &[&[0, 0, 0, 0, 0, 0xbb], port]),
        ..Default::default()
    };

    assert_eq!(route(&s, [10, 2, 3, 4]), Vec::<u32>::new(), "no route yet");
    write(&mut c, 1, vec![update(Insert, route_entry(&[0, 2]))])
        .await
        .unwrap();
    assert_eq!(route(&s, [10, 2, 3, 4]), vec![2]);
    assert_eq!(route(&s, [10, 3, 0, 1]), Vec::<u32>::new());

    // Read back in canonical form.
    let all = read(&mut c, p4::TableEntry::default()).await;
    let mine: Vec<_> = all.iter().filter(|e| e.table_id == lpm_table).collect();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].r#match, vec![field(1, lpm(&[10, 2, 0, 0], 16))]);
    assert_eq!(mine[0].action, action(set_nexthop, &[&[0xbb], &[2]]));
    assert_eq!(mine[0].priority, 0);
    // The wildcard read also returns the ACL's const entries, marked so.
    let acl = id("RouterIngress.acl");
    let consts: Vec<_> = all.iter().filter(|e| e.table_id == acl).collect();
    assert_eq!(consts.len(), 4);
    assert!(consts.iter().all(|e| e.is_const && e.priority > 0));

    write(&mut c, 1, vec![update(Modify, route_entry(&[3]))])
        .await
        .unwrap();
    assert_eq!(route(&s, [10, 2, 3, 4]), vec![3]);
    let by_table = read(
        &mut c,
        p4::TableEntry {
            table_id: lpm_table,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(by_table.len(), 1);
    assert_eq!(by_table[0].action, action(set_nexthop, &[&[0xbb], &[3]]));

    // Default entry: forward the unrouted to port 7, then restore.
    let default = |a: Option<p4::TableAction>| p4::TableEntry {
        table_id: lpm_table,
        is_default_action: true,
        action: a,
        ..Default::default()
    };
    write(
        &mut c,
        1,
        vec![update(Modify, default(action(set_nexthop, &[&[1], &[7]])))],
    )
    .await
    .unwrap();
    assert_eq!(route(&s, [11, 0, 0, 1]), vec![7]);
    let got = read(&mut c, default(None)).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].action, action(set_nexthop, &[&[1], &[7]]));
    write(&mut c, 1, vec![update(Modify, default(None))])
        .await
        .unwrap();
    assert_eq!(route(&s, [11, 0, 0, 1]), Vec::<u32>::new());
    let e = write(
        &mut c,
        1,
        vec![update(
            Insert,
            default(action(id("RouterIngress.drop"), &[])),
        )],
    )
    .await
    .unwrap_err();
    assert_eq!(update_codes(&e)[0].0, Code::InvalidArgument);
    // The ACL's default is const; its entries too.
    let e = write(
        &mut c,
        1,
        vec![
            update(
                Modify,
                p4::TableEntry {
                    table_id: acl,
                    is_default_action: true,
                    action: action(id("RouterIngress.acl_deny"), &[]),
                    ..Default::default()
                },
            ),
            update(
                Insert,
                p4::TableEntry {
                    table_id: acl,
                    r#match: vec![field(3, ternary(&[6], &[0xff]))],
                    priority: 10,
                    action: action(id("RouterIngress.acl_deny"), &[]),
                    ..Default::default()
                },
            ),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|c| c.0).collect();
    assert_eq!(codes, vec![Code::PermissionDenied, Code::PermissionDenied]);

    write(&mut c, 1, vec![update(Delete, route_entry(&[3]))])
        .await
        .unwrap();
    assert_eq!(route(&s, [10, 2, 3, 4]), Vec::<u32>::new());
    assert!(
        read(
            &mut c,
            p4::TableEntry {
                table_id: lpm_table,
                ..Default::default()
            }
        )
        .await
        .is_empty()
    );
    let e = write(&mut c, 1, vec![update(Delete, route_entry(&[3]))])
        .await
        .unwrap_err();
    assert_eq!(update_codes(&e)[0].0, Code::NotFound);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ternary_entries_with_priorities() {
    use p4::update::Type::{Delete, Insert, Modify};
    let s = start().await;
    let (mut c, _stream) = primary_with(&s, 1, router_writable_acl()).await;
    let info = router_writable_acl().p4info.unwrap();
    let id = ids(&info);
    let acl = id("RouterIngress.acl");
    let (permit, deny) = (id("RouterIngress.acl_permit"), id("RouterIngress.acl_deny"));
    // Deny UDP from 10.1.0.0/16 to port 8080 (ranges 8080..8080).
    let entry = |a: u32, priority: i32| p4::TableEntry {
        table_id: acl,
        r#match: vec![
            field(1, ternary(&[10, 1, 0, 0], &[255, 255, 0, 0])),
            field(3, ternary(&[17], &[0xff])),
            field(
                4,
                F::Range(p4::field_match::Range {
                    low: vec![0x1f, 0x90],
                    high: vec![0x1f, 0x90],
                }),
            ),
        ],
        priority,
        action: action(a, &[]),
        ..Default::default()
    };
    let lpm_table = id("RouterIngress.ipv4_lpm");
    write(
        &mut c,
        1,
        vec![
            update(
                Insert,
                p4::TableEntry {
                    table_id: lpm_table,
                    r#match: vec![field(1, lpm(&[10, 2, 0, 0], 16))],
                    action: action(id("RouterIngress.set_nexthop"), &[&[0xbb], &[2]]),
                    ..Default::default()
                },
            ),
            update(Insert, entry(deny, 1000)),
        ],
    )
    .await
    .unwrap();
    assert_eq!(route(&s, [10, 2, 3, 4]), Vec::<u32>::new(), "denied");

    let got = read(
        &mut c,
        p4::TableEntry {
            table_id: acl,
            ..Default::default()
        },
    )
    .await;
    let mine: Vec<_> = got.iter().filter(|e| e.priority == 1000).collect();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].r#match, entry(deny, 1000).r#match);
    assert_eq!(mine[0].action, action(deny, &[]));
    assert!(!mine[0].is_const);
    // Reading by key and priority returns just that entry.
    let one = read(&mut c, entry(deny, 1000)).await;
    assert_eq!(one.len(), 1);

    write(&mut c, 1, vec![update(Modify, entry(permit, 1000))])
        .await
        .unwrap();
    assert_eq!(route(&s, [10, 2, 3, 4]), vec![2], "permitted");
    // The same key with another priority is another entry.
    write(&mut c, 1, vec![update(Insert, entry(deny, 2000))])
        .await
        .unwrap();
    assert_eq!(route(&s, [10, 2, 3, 4]), Vec::<u32>::new());
    write(&mut c, 1, vec![update(Delete, entry(deny, 2000))])
        .await
        .unwrap();
    assert_eq!(route(&s, [10, 2, 3, 4]), vec![2]);

    // Ternary tables need a priority; value bits outside the mask and
    // zero masks are refused.
    let mut bad_value = entry(deny, 5);
    bad_value.r#match[0] = field(1, ternary(&[10, 1, 2, 0], &[255, 255, 0, 0]));
    let mut zero_mask = entry(deny, 6);
    zero_mask.r#match[1] = field(3, ternary(&[0], &[0]));
    let e = write(
        &mut c,
        1,
        vec![
            update(Insert, entry(deny, 0)),
            update(Insert, bad_value),
            update(Insert, zero_mask),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|c| c.0).collect();
    assert_eq!(codes, vec![Code::InvalidArgument; 3]);

    write(&mut c, 1, vec![update(Delete, entry(deny, 1000))])
        .await
        .unwrap();
    assert!(read(&mut c, entry(deny, 1000)).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_with_bad_updates_reports_each() {
    use p4::update::Type::Insert;
    let s = start().await;
    let (mut c, _stream) = primary_with(&s, 1, router()).await;
    let info = router().p4info.unwrap();
    let id = ids(&info);
    let lpm_table = id("RouterIngress.ipv4_lpm");
    let set_nexthop = id("RouterIngress.set_nexthop");
    let route_entry = |net: u8, len: i32, port: &[u8]| p4::TableEntry {
        table_id: lpm_table,
        r#match: vec![field(1, lpm(&[10, net, 0, 0], len))],
        action: action(set_nexthop, &[&[0xbb], port]),
        ..Default::default()
    };
    let mut missing_param = route_entry(6, 16, &[1]);
    missing_param.action = action(set_nexthop, &[&[0xbb]]);
    let mut unknown_table = route_entry(7, 16, &[1]);
    unknown_table.table_id = 0x0200_0001;
    let mut foreign_action = route_entry(8, 16, &[1]);
    foreign_action.action = action(id("RouterEgress.rewrite_source"), &[&[1]]);
    let updates = vec![
        update(Insert, route_entry(1, 16, &[1])),
        update(Insert, route_entry(1, 16, &[2])), // duplicate
        update(Insert, route_entry(2, 16, &[2, 0])), // 10 bits for bit<9>
        update(Insert, route_entry(3, 33, &[1])), // prefix longer than 32
        update(Insert, route_entry(4, 8, &[1])),  // bits beyond the prefix
        update(Insert, missing_param),
        update(Insert, unknown_table),
        update(Insert, foreign_action),
        update(Insert, route_entry(9, 16, &[4])),
    ];
    let e = write(&mut c, 1, updates).await.unwrap_err();
    let codes = update_codes(&e);
    let just: Vec<Code> = codes.iter().map(|c| c.0).collect();
    assert_eq!(
        just,
        vec![
            Code::Ok,
            Code::AlreadyExists,
            Code::OutOfRange,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::NotFound,
            Code::InvalidArgument,
            Code::Ok,
        ],
        "{codes:#?}"
    );
    assert!(codes[0].1.is_empty() && !codes[2].1.is_empty());
    // The good updates were applied.
    let got = read(
        &mut c,
        p4::TableEntry {
            table_id: lpm_table,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(got.len(), 2);
    assert_eq!(route(&s, [10, 1, 0, 1]), vec![1]);
    assert_eq!(route(&s, [10, 9, 0, 1]), vec![4]);

    // One wrong width alone: still per-update details.
    let e = write(&mut c, 1, vec![update(Insert, route_entry(5, 40, &[1]))])
        .await
        .unwrap_err();
    assert_eq!(update_codes(&e)[0].0, Code::InvalidArgument);
}
