//! Group actions of one-shot action sets (P4Runtime 1.6: the
//! `ActionProfileActionSet.group_action` field, p4lang/p4runtime#594, and
//! the `GROUP_ACTION` action scope, #604), on a small v1model program
//! written here, through the real gRPC server. No P4 program can state the
//! GROUP_ACTION scope (p4c emits it for no annotation), so the tests push
//! the program's P4Info with the scope set on the `tag` and `halt` action
//! refs. Packets go in with `SwitchHandle::inject`; every wait is bounded.

mod common;

use common::*;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use p4::entity::Entity as E;
use p4::update::Type::{Delete, Insert, Modify};
use p4::write_request::Atomicity;
use prost::Message;
use std::collections::BTreeSet;
use tonic::Code;
use tonic::transport::Channel;

/// The EtherType picks the table: 1 `route` (an action selector), 5
/// `plain` (an action profile without one), 7 `tagged` (whose default
/// action is `tag`), else `direct`. `tag` (a group action) writes its tag
/// into the metadata and the EtherType; `to_port` copies the metadata's
/// tag into the last byte of the source MAC, so a frame shows both that
/// the group action ran and that it ran before the member's action.
/// `halt` (a group action too) sets the EtherType and exits.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { ethernet_t eth; }
struct meta_t { bit<8> tag; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action_selector(HashAlgorithm.crc16, 32w64, 32w16) sel;
    action_profile(32w8) plain_profile;
    action to_port(bit<9> port) { sm.egress_spec = port; hdr.eth.src[7:0] = m.tag; }
    action tag(bit<8> t) { m.tag = t; hdr.eth.etype = 16w0x8800 | (bit<16>)t; }
    action halt(bit<8> t) { hdr.eth.etype = 16w0x9900 | (bit<16>)t; exit; }
    action mark(bit<8> t) { hdr.eth.dst[47:40] = t; }
    table route {
        key = { hdr.eth.dst: exact; hdr.eth.src: selector; }
        actions = { to_port; tag; halt; @tableonly mark; }
        implementation = sel;
    }
    table plain {
        key = { hdr.eth.dst: exact; }
        actions = { to_port; tag; }
        implementation = plain_profile;
    }
    table tagged {
        key = { hdr.eth.dst: exact; }
        actions = { to_port; tag; }
        default_action = tag(7);
    }
    table direct {
        key = { hdr.eth.dst: exact; }
        actions = { to_port; tag; }
    }
    apply {
        if (hdr.eth.etype == 1) { route.apply(); }
        else if (hdr.eth.etype == 5) { plain.apply(); }
        else if (hdr.eth.etype == 7) { tagged.apply(); }
        else { direct.apply(); }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

const ELECTION: u64 = 10;

/// The program's config with its own P4Info (no GROUP_ACTION anywhere).
fn program_config() -> p4::ForwardingPipelineConfig {
    pipeline_config("group_action_test.p4", PROGRAM.to_string(), Some(6))
}

/// `info` with the refs of `actions` in `tables` (by name) scoped `scope`.
fn scoped(
    mut info: cfg::P4Info,
    tables: &[&str],
    actions: &[&str],
    scope: cfg::action_ref::Scope,
) -> cfg::P4Info {
    let id = |name: &str| ids(&info)(name);
    let tables: BTreeSet<u32> = tables.iter().map(|t| id(t)).collect();
    let actions: BTreeSet<u32> = actions.iter().map(|a| id(a)).collect();
    for t in &mut info.tables {
        if !tables.contains(&t.preamble.as_ref().unwrap().id) {
            continue;
        }
        for r in &mut t.action_refs {
            if actions.contains(&r.id) {
                r.scope = scope as i32;
            }
        }
    }
    info
}

/// The config the tests push: `tag` and `halt` are group actions of
/// `route`, `plain` and `direct`.
fn config() -> p4::ForwardingPipelineConfig {
    let mut c = program_config();
    c.p4info = Some(scoped(
        c.p4info.unwrap(),
        &["I.route", "I.plain", "I.direct"],
        &["I.tag", "I.halt"],
        cfg::action_ref::Scope::GroupAction,
    ));
    c
}

struct Ids {
    route: u32,
    plain: u32,
    direct: u32,
    to_port: u32,
    tag: u32,
    halt: u32,
    mark: u32,
    /// `route`'s action selector and `plain`'s action profile.
    sel: u32,
    plain_profile: u32,
}

fn ids_of(info: &cfg::P4Info) -> Ids {
    let id = ids(info);
    let implementation = |table: u32| {
        info.tables
            .iter()
            .find(|t| t.preamble.as_ref().is_some_and(|p| p.id == table))
            .expect("the table")
            .implementation_id
    };
    let (route, plain) = (id("I.route"), id("I.plain"));
    Ids {
        route,
        plain,
        direct: id("I.direct"),
        to_port: id("I.to_port"),
        tag: id("I.tag"),
        halt: id("I.halt"),
        mark: id("I.mark"),
        sel: implementation(route),
        plain_profile: implementation(plain),
    }
}

/// The entry of `table` for destination `dst` (its one exact field).
fn entry(table: u32, dst: u8, action: Option<p4::TableAction>) -> p4::TableEntry {
    p4::TableEntry {
        table_id: table,
        r#match: vec![p4::FieldMatch {
            field_id: 1,
            field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                p4::field_match::Exact { value: vec![dst] },
            )),
        }],
        action,
        ..Default::default()
    }
}

/// Action `id` with its one parameter (id 1) given as `value`.
fn call(id: u32, value: &[u8]) -> p4::Action {
    p4::Action {
        action_id: id,
        params: vec![p4::action::Param {
            param_id: 1,
            value: value.to_vec(),
        }],
    }
}

/// One action of a one-shot set: to `port`, weight 1.
fn act(ids: &Ids, port: u8) -> p4::ActionProfileAction {
    p4::ActionProfileAction {
        action: Some(call(ids.to_port, &[port])),
        weight: 1,
        watch_kind: None,
    }
}

fn set(
    actions: Vec<p4::ActionProfileAction>,
    group_action: Option<p4::Action>,
) -> p4::ActionProfileActionSet {
    p4::ActionProfileActionSet {
        action_profile_actions: actions,
        group_action,
        ..Default::default()
    }
}

fn one_shot(s: p4::ActionProfileActionSet) -> Option<p4::TableAction> {
    Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::ActionProfileActionSet(s)),
    })
}

fn direct_action(a: p4::Action) -> Option<p4::TableAction> {
    Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::Action(a)),
    })
}

/// A frame to 00:..:`dst` from 02:00:00:00:`flow` (big-endian) with
/// EtherType `etype`.
fn frame(dst: u8, flow: u16, etype: u16) -> Vec<u8> {
    let [hi, lo] = flow.to_be_bytes();
    let mut f = vec![0, 0, 0, 0, 0, dst, 2, 0, 0, 0, hi, lo];
    f.extend_from_slice(&etype.to_be_bytes());
    f.extend_from_slice(b"janus group-action payload");
    f
}

/// What a frame came out as: its port, the last byte of its source MAC,
/// its EtherType.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Out {
    port: u32,
    src_low: u8,
    etype: u16,
}

/// What each of flows `0..n` to `dst` with EtherType `etype` came out as.
fn send(s: &Server, dst: u8, etype: u16, n: u16) -> Vec<Out> {
    (0..n)
        .map(|flow| {
            let out = s
                .switch
                .inject(1, &frame(dst, flow, etype))
                .expect("the packet goes through");
            let (port, f) = out.first().expect("the frame leaves");
            Out {
                port: *port,
                src_low: f[11],
                etype: u16::from_be_bytes([f[12], f[13]]),
            }
        })
        .collect()
}

/// The ports the frames left by.
fn ports_of(outs: &[Out]) -> BTreeSet<u32> {
    outs.iter().map(|o| o.port).collect()
}

async fn read(c: &mut P4RuntimeClient<Channel>, e: E) -> Vec<E> {
    read_entities(c, vec![entity(e)])
        .await
        .expect("read")
        .into_iter()
        .filter_map(|e| e.entity)
        .collect()
}

/// The one-shot set of the entry of `table` for `dst`, as read back.
async fn read_set(
    c: &mut P4RuntimeClient<Channel>,
    table: u32,
    dst: u8,
) -> p4::ActionProfileActionSet {
    let got = read(c, E::TableEntry(entry(table, dst, None))).await;
    match got.as_slice() {
        [E::TableEntry(te)] => match te.action.as_ref().and_then(|a| a.r#type.as_ref()) {
            Some(p4::table_action::Type::ActionProfileActionSet(s)) => s.clone(),
            other => panic!("not a one-shot set: {other:?}"),
        },
        other => panic!("not one entry: {other:?}"),
    }
}

/// Every table entry and member the server reports, as a sorted list.
async fn state(c: &mut P4RuntimeClient<Channel>) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = read_entities(
        c,
        vec![
            entity(E::TableEntry(p4::TableEntry::default())),
            entity(E::ActionProfileMember(p4::ActionProfileMember::default())),
        ],
    )
    .await
    .expect("read")
    .iter()
    .map(Message::encode_to_vec)
    .collect();
    out.sort();
    out
}

/// Writes `updates` under `atomicity`; the per-update codes of a failure.
async fn write_with(
    c: &mut P4RuntimeClient<Channel>,
    atomicity: Atomicity,
    updates: Vec<p4::Update>,
) -> Result<(), Vec<(Code, String)>> {
    lib_client(c, "", ELECTION)
        .write(updates, atomicity)
        .await
        .map_err(|e| update_codes(&status(e)))
}

/// The code and message of one update written alone.
async fn result_of(c: &mut P4RuntimeClient<Channel>, u: p4::Update) -> (Code, String) {
    match write_with(c, Atomicity::ContinueOnError, vec![u]).await {
        Ok(()) => (Code::Ok, String::new()),
        Err(mut codes) => codes.remove(0),
    }
}

async fn setup() -> (Server, P4RuntimeClient<Channel>, Stream, Ids) {
    let s = start().await;
    let ids = ids_of(config().p4info.as_ref().unwrap());
    let (c, stream) = primary_with(&s, ELECTION, config()).await;
    (s, c, stream, ids)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_group_action_runs_before_the_member_on_every_hit() {
    let (s, mut c, _stream, ids) = setup().await;
    // The group action's parameter is given zero-padded: read back canonical.
    let written = set(
        vec![act(&ids, 2), act(&ids, 3)],
        Some(call(ids.tag, &[0, 0x5a])),
    );
    write(
        &mut c,
        ELECTION,
        vec![
            update(Insert, entry(ids.route, 0x0a, one_shot(written))),
            update(
                Insert,
                entry(ids.route, 0x0b, one_shot(set(vec![act(&ids, 4)], None))),
            ),
        ],
    )
    .await
    .expect("written");

    // Every hit runs `tag` (EtherType 0x885a), then the member picked,
    // which sees the tag (the source MAC's last byte); both members pick.
    let outs = send(&s, 0x0a, 1, 256);
    assert_eq!(ports_of(&outs), BTreeSet::from([2, 3]), "{outs:?}");
    assert!(
        outs.iter().all(|o| o.etype == 0x885a && o.src_low == 0x5a),
        "{outs:?}"
    );
    // A set without a group action runs its member alone (no tag).
    let plain = send(&s, 0x0b, 1, 16);
    assert!(
        plain
            .iter()
            .all(|o| o.port == 4 && o.etype == 1 && o.src_low == 0),
        "{plain:?}"
    );

    // Read back as written, canonical.
    let want = set(
        vec![act(&ids, 2), act(&ids, 3)],
        Some(call(ids.tag, &[0x5a])),
    );
    assert_eq!(read_set(&mut c, ids.route, 0x0a).await, want);
    assert_eq!(read_set(&mut c, ids.route, 0x0b).await.group_action, None);
    // The whole set comes back in a wildcard read too, and no member is seen.
    let all = read(&mut c, E::TableEntry(p4::TableEntry::default())).await;
    assert_eq!(all.len(), 2);
    assert!(
        read(
            &mut c,
            E::ActionProfileMember(p4::ActionProfileMember::default())
        )
        .await
        .is_empty()
    );

    // MODIFY: another group action, then none, then one again.
    let modify = |g: Option<p4::Action>| {
        update(
            Modify,
            entry(
                ids.route,
                0x0a,
                one_shot(set(vec![act(&ids, 2), act(&ids, 3)], g)),
            ),
        )
    };
    write(&mut c, ELECTION, vec![modify(Some(call(ids.tag, &[0x11])))])
        .await
        .expect("modified");
    let outs = send(&s, 0x0a, 1, 64);
    assert!(
        outs.iter().all(|o| o.etype == 0x8811 && o.src_low == 0x11),
        "{outs:?}"
    );
    assert_eq!(
        read_set(&mut c, ids.route, 0x0a).await.group_action,
        Some(call(ids.tag, &[0x11]))
    );
    write(&mut c, ELECTION, vec![modify(None)])
        .await
        .expect("modified");
    let outs = send(&s, 0x0a, 1, 64);
    assert_eq!(ports_of(&outs), BTreeSet::from([2, 3]));
    assert!(
        outs.iter().all(|o| o.etype == 1 && o.src_low == 0),
        "{outs:?}"
    );
    assert_eq!(read_set(&mut c, ids.route, 0x0a).await.group_action, None);

    // A group action that exits ends the stage: no member runs (the frame
    // leaves by port 0, its EtherType set by `halt`).
    write(
        &mut c,
        ELECTION,
        vec![modify(Some(call(ids.halt, &[0x22])))],
    )
    .await
    .expect("modified");
    let outs = send(&s, 0x0a, 1, 32);
    assert!(
        outs.iter()
            .enumerate()
            .all(|(flow, o)| o.port == 0 && o.etype == 0x9922 && o.src_low == flow as u8),
        "{outs:?}"
    );

    // DELETE: the entry and its group action are gone (a miss).
    write(
        &mut c,
        ELECTION,
        vec![update(Delete, entry(ids.route, 0x0a, None))],
    )
    .await
    .expect("deleted");
    let outs = send(&s, 0x0a, 1, 16);
    assert!(outs.iter().all(|o| o.port == 0 && o.etype == 1), "{outs:?}");
    assert!(
        read(&mut c, E::TableEntry(entry(ids.route, 0x0a, None)))
            .await
            .is_empty()
    );
    // The same key takes a set with a group action again.
    write(
        &mut c,
        ELECTION,
        vec![update(
            Insert,
            entry(
                ids.route,
                0x0a,
                one_shot(set(vec![act(&ids, 5)], Some(call(ids.tag, &[0x33])))),
            ),
        )],
    )
    .await
    .expect("inserted again");
    let outs = send(&s, 0x0a, 1, 16);
    assert!(
        outs.iter()
            .all(|o| o.port == 5 && o.etype == 0x8833 && o.src_low == 0x33),
        "{outs:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_group_action_updates_change_nothing() {
    let (s, mut c, _stream, ids) = setup().await;
    write(
        &mut c,
        ELECTION,
        vec![update(
            Insert,
            entry(
                ids.route,
                0x0a,
                one_shot(set(vec![act(&ids, 2)], Some(call(ids.tag, &[0x5a])))),
            ),
        )],
    )
    .await
    .expect("written");
    let before = state(&mut c).await;
    let flows = send(&s, 0x0a, 1, 32);

    let on_route = |dst: u8, s: p4::ActionProfileActionSet| entry(ids.route, dst, one_shot(s));
    let cases: Vec<(&str, p4::Update, Code)> = vec![
        (
            "a TABLE_AND_DEFAULT action as the group action",
            update(
                Insert,
                on_route(0x0b, set(vec![act(&ids, 2)], Some(call(ids.to_port, &[3])))),
            ),
            Code::InvalidArgument,
        ),
        (
            "a TABLE_ONLY action as the group action",
            update(
                Insert,
                on_route(0x0b, set(vec![act(&ids, 2)], Some(call(ids.mark, &[3])))),
            ),
            Code::InvalidArgument,
        ),
        (
            "an action the table does not list as the group action",
            update(
                Insert,
                on_route(0x0b, set(vec![act(&ids, 2)], Some(call(0x01ff_fff0, &[3])))),
            ),
            Code::InvalidArgument,
        ),
        (
            "a group action without its parameter",
            update(
                Insert,
                on_route(
                    0x0b,
                    set(
                        vec![act(&ids, 2)],
                        Some(p4::Action {
                            action_id: ids.tag,
                            params: vec![],
                        }),
                    ),
                ),
            ),
            Code::InvalidArgument,
        ),
        (
            "a group action whose parameter is too wide",
            update(
                Insert,
                on_route(0x0b, set(vec![act(&ids, 2)], Some(call(ids.tag, &[1, 0])))),
            ),
            Code::OutOfRange,
        ),
        (
            "a group action as a one-shot set's member action",
            update(
                Insert,
                on_route(
                    0x0b,
                    set(
                        vec![
                            act(&ids, 2),
                            p4::ActionProfileAction {
                                action: Some(call(ids.tag, &[1])),
                                weight: 1,
                                watch_kind: None,
                            },
                        ],
                        None,
                    ),
                ),
            ),
            Code::InvalidArgument,
        ),
        (
            "a group action as an action profile member's action",
            upd(
                Insert,
                E::ActionProfileMember(p4::ActionProfileMember {
                    action_profile_id: ids.plain_profile,
                    member_id: 1,
                    action: Some(call(ids.tag, &[1])),
                }),
            ),
            Code::InvalidArgument,
        ),
        (
            "a selector member with a group action's action",
            upd(
                Insert,
                E::ActionProfileMember(p4::ActionProfileMember {
                    action_profile_id: ids.sel,
                    member_id: 1,
                    action: Some(call(ids.halt, &[1])),
                }),
            ),
            Code::InvalidArgument,
        ),
        (
            "a set with a group action in a direct table",
            update(
                Insert,
                entry(
                    ids.direct,
                    0x0b,
                    one_shot(set(vec![act(&ids, 2)], Some(call(ids.tag, &[1])))),
                ),
            ),
            Code::InvalidArgument,
        ),
        (
            "a set with a group action in a table without a selector",
            update(
                Insert,
                entry(
                    ids.plain,
                    0x0b,
                    one_shot(set(vec![act(&ids, 2)], Some(call(ids.tag, &[1])))),
                ),
            ),
            Code::InvalidArgument,
        ),
        (
            "a MODIFY to a non-group action as the group action",
            update(
                Modify,
                on_route(0x0a, set(vec![act(&ids, 3)], Some(call(ids.to_port, &[4])))),
            ),
            Code::InvalidArgument,
        ),
        (
            "a set with a group action as the default action",
            update(
                Modify,
                p4::TableEntry {
                    table_id: ids.route,
                    is_default_action: true,
                    action: one_shot(set(vec![act(&ids, 2)], Some(call(ids.tag, &[1])))),
                    ..Default::default()
                },
            ),
            Code::Unimplemented,
        ),
    ];
    for (what, u, want) in cases {
        let (code, message) = result_of(&mut c, u).await;
        assert_eq!(code, want, "{what}: {message}");
        assert_eq!(state(&mut c).await, before, "{what}: the state changed");
        assert_eq!(
            send(&s, 0x0a, 1, 32),
            flows,
            "{what}: the data plane changed"
        );
    }

    // A batch rolled back puts the old group action back.
    let result = write_with(
        &mut c,
        Atomicity::RollbackOnError,
        vec![
            update(
                Modify,
                on_route(0x0a, set(vec![act(&ids, 6)], Some(call(ids.tag, &[0x44])))),
            ),
            update(
                Insert,
                on_route(0x0c, set(vec![act(&ids, 2)], Some(call(ids.tag, &[0x55])))),
            ),
            update(
                Insert,
                on_route(0x0d, set(vec![act(&ids, 2)], Some(call(ids.to_port, &[1])))),
            ),
        ],
    )
    .await;
    let codes: Vec<Code> = result.expect_err("refused").iter().map(|c| c.0).collect();
    assert_eq!(
        codes,
        vec![Code::Aborted, Code::Aborted, Code::InvalidArgument]
    );
    assert_eq!(state(&mut c).await, before, "rolled back");
    assert_eq!(send(&s, 0x0a, 1, 32), flows, "rolled back: the data plane");
}

/// Needs the GROUP_ACTION check at `action_of`'s two call sites in
/// `ctrl/src/device.rs` (a table entry's direct action, the default
/// action): see docs/control-plane.md, "Group actions".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_action_is_no_direct_or_default_action() {
    let (s, mut c, _stream, ids) = setup().await;
    let before = state(&mut c).await;
    let default = |table: u32, a: p4::Action| p4::TableEntry {
        table_id: table,
        is_default_action: true,
        action: direct_action(a),
        ..Default::default()
    };
    let cases: Vec<(&str, p4::Update)> = vec![
        (
            "a direct entry's action",
            update(
                Insert,
                entry(ids.direct, 0x0a, direct_action(call(ids.tag, &[1]))),
            ),
        ),
        (
            "a direct table's default action",
            update(Modify, default(ids.direct, call(ids.tag, &[1]))),
        ),
        (
            "a selector table's default action",
            update(Modify, default(ids.route, call(ids.halt, &[1]))),
        ),
    ];
    for (what, u) in cases {
        let (code, message) = result_of(&mut c, u).await;
        assert_eq!(code, Code::InvalidArgument, "{what}: {message}");
        assert_eq!(state(&mut c).await, before, "{what}: the state changed");
    }
    // The direct table still misses to its program default (no action).
    let outs = send(&s, 0x0a, 6, 4);
    assert!(outs.iter().all(|o| o.port == 0 && o.etype == 6), "{outs:?}");
    // Its other actions are as before.
    write(
        &mut c,
        ELECTION,
        vec![update(
            Insert,
            entry(ids.direct, 0x0a, direct_action(call(ids.to_port, &[3]))),
        )],
    )
    .await
    .expect("a direct entry");
    assert!(send(&s, 0x0a, 6, 4).iter().all(|o| o.port == 3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_push_check_takes_group_action_scopes() {
    let s = start().await;
    let (mut c, _stream) = primary_with(&s, ELECTION, config()).await;
    // The P4Info comes back as pushed, GROUP_ACTION and all.
    let got = lib_client(&c, "", ELECTION)
        .get_pipeline_config(
            p4::get_forwarding_pipeline_config_request::ResponseType::P4infoAndCookie,
        )
        .await
        .expect("get");
    assert_eq!(got.p4info, config().p4info);

    let push = |info: cfg::P4Info| {
        let mut cfg = program_config();
        cfg.p4info = Some(info);
        cfg
    };
    use cfg::action_ref::Scope;
    let refused = [
        (
            // The program says `mark` cannot be a default action, not that
            // it is a group action.
            scoped(
                program_config().p4info.unwrap(),
                &["I.route"],
                &["I.mark"],
                Scope::GroupAction,
            ),
            "action I.mark is TABLE_ONLY in the program but GROUP_ACTION in the P4Info",
        ),
        (
            // `tagged` runs `tag` as its default action.
            scoped(
                program_config().p4info.unwrap(),
                &["I.tagged"],
                &["I.tag"],
                Scope::GroupAction,
            ),
            "action I.tag is GROUP_ACTION in the P4Info, but the program makes it the table's default action",
        ),
        (
            // Narrowing goes one way: the program's TABLE_AND_DEFAULT is
            // not DEFAULT_ONLY.
            scoped(
                program_config().p4info.unwrap(),
                &["I.route"],
                &["I.tag"],
                Scope::DefaultOnly,
            ),
            "action I.tag is TABLE_AND_DEFAULT in the program but DEFAULT_ONLY in the P4Info",
        ),
    ];
    for (info, want) in refused {
        let e = set_pipeline(
            &mut c,
            ELECTION,
            push(info),
            p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit,
        )
        .await
        .expect_err("refused");
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        assert!(e.message().contains(want), "{}", e.message());
    }

    // The program's own P4Info (no group actions) is accepted, and then
    // `tag` is an ordinary action again: no group action, a member action.
    set_pipeline(
        &mut c,
        ELECTION,
        program_config(),
        p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit,
    )
    .await
    .expect("the program's P4Info");
    let ids = ids_of(program_config().p4info.as_ref().unwrap());
    let (code, message) = result_of(
        &mut c,
        update(
            Insert,
            entry(
                ids.route,
                0x0a,
                one_shot(set(vec![act(&ids, 2)], Some(call(ids.tag, &[1])))),
            ),
        ),
    )
    .await;
    assert_eq!(code, Code::InvalidArgument, "{message}");
    assert!(message.contains("GROUP_ACTION"), "{message}");
    write(
        &mut c,
        ELECTION,
        vec![update(
            Insert,
            entry(
                ids.route,
                0x0a,
                one_shot(set(
                    vec![p4::ActionProfileAction {
                        action: Some(call(ids.tag, &[0x21])),
                        weight: 1,
                        watch_kind: None,
                    }],
                    None,
                )),
            ),
        )],
    )
    .await
    .expect("tag as a member action");
    assert!(send(&s, 0x0a, 1, 4).iter().all(|o| o.etype == 0x8821));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_journal_restores_group_actions() {
    // Every batch replayed, and compacted every two batches (the snapshot
    // holds the sets as read, group actions included).
    for (name, every) in [("replay", 0), ("snapshot", 2)] {
        let mut cfg = state_dir("group-action", name);
        cfg.snapshot_every = every;
        let ids = ids_of(config().p4info.as_ref().unwrap());
        let (seen, flows) = {
            let s = start_in(&cfg).await;
            let (mut c, _stream) = primary_with(&s, ELECTION, config()).await;
            let batches = vec![
                vec![
                    update(
                        Insert,
                        entry(
                            ids.route,
                            0x0a,
                            one_shot(set(
                                vec![act(&ids, 2), act(&ids, 3)],
                                Some(call(ids.tag, &[0x5a])),
                            )),
                        ),
                    ),
                    update(
                        Insert,
                        entry(
                            ids.route,
                            0x0b,
                            one_shot(set(vec![act(&ids, 4)], Some(call(ids.tag, &[0x01])))),
                        ),
                    ),
                ],
                vec![update(
                    Modify,
                    entry(
                        ids.route,
                        0x0a,
                        one_shot(set(
                            vec![act(&ids, 7), act(&ids, 8)],
                            Some(call(ids.tag, &[0, 0x6b])),
                        )),
                    ),
                )],
                vec![update(
                    Modify,
                    entry(ids.route, 0x0b, one_shot(set(vec![act(&ids, 4)], None))),
                )],
                // Refused: journaled as nothing.
                vec![update(
                    Insert,
                    entry(
                        ids.route,
                        0x0c,
                        one_shot(set(vec![act(&ids, 9)], Some(call(ids.to_port, &[1])))),
                    ),
                )],
            ];
            for (i, b) in batches.into_iter().enumerate() {
                let result = write(&mut c, ELECTION, b).await;
                assert_eq!(result.is_ok(), i < 3, "batch {i}: {result:?}");
            }
            let flows = (send(&s, 0x0a, 1, 128), send(&s, 0x0b, 1, 8));
            assert!(
                flows
                    .0
                    .iter()
                    .all(|o| o.etype == 0x886b && o.src_low == 0x6b)
            );
            assert!(flows.1.iter().all(|o| o.etype == 1));
            (state(&mut c).await, flows)
        };
        wait_unlocked(&cfg).await;
        let s = start_in(&cfg).await;
        let mut c = client(&s).await;
        assert_eq!(state(&mut c).await, seen, "{name}");
        assert_eq!(
            read_set(&mut c, ids.route, 0x0a).await,
            set(
                vec![act(&ids, 7), act(&ids, 8)],
                Some(call(ids.tag, &[0x6b]))
            ),
            "{name}"
        );
        assert_eq!(read_set(&mut c, ids.route, 0x0b).await.group_action, None);
        let now = (send(&s, 0x0a, 1, 128), send(&s, 0x0b, 1, 8));
        assert_eq!(now, flows, "{name}: the data plane after the restart");
        // The restored pipeline keeps the pushed scopes: still refused.
        let mut stream = Stream::open(&mut c).await;
        stream.arbitrate(ELECTION).await;
        assert_eq!(stream.answer().await.unwrap().0, Code::Ok);
        let (code, message) = result_of(
            &mut c,
            update(
                Insert,
                entry(
                    ids.route,
                    0x0c,
                    one_shot(set(vec![act(&ids, 9)], Some(call(ids.to_port, &[1])))),
                ),
            ),
        )
        .await;
        assert_eq!(code, Code::InvalidArgument, "{name}: {message}");

        // RECONCILE_AND_COMMIT of the same config carries them too.
        set_pipeline(
            &mut c,
            ELECTION,
            config(),
            p4::set_forwarding_pipeline_config_request::Action::ReconcileAndCommit,
        )
        .await
        .expect("reconciled");
        assert_eq!(state(&mut c).await, seen, "{name}: reconciled");
        assert_eq!(send(&s, 0x0a, 1, 128), flows.0, "{name}: reconciled");
        drop(stream);
        drop(s);
        wait_unlocked(&cfg).await;
        let _ = std::fs::remove_dir_all(&cfg.dir);
    }
}
