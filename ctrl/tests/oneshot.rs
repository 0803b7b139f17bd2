//! Action selectors: weighted group members, watch ports, one-shot action
//! sets (P4Runtime §9.2.2, §9.2.3), on a small v1model program written
//! here, through the real gRPC server. Packets go in with
//! `SwitchHandle::inject`; every wait is bounded by a timeout.

mod common;

use common::*;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use p4::entity::Entity as E;
use p4::update::Type::{Delete, Insert, Modify};
use p4::write_request::Atomicity;
use prost::Message;
use std::collections::BTreeMap;
use tonic::Code;
use tonic::transport::Channel;

/// The EtherType picks the table: 1 `route` (one-shot sets), 2 `groups`
/// (members and groups), 3 `small` (a selector whose groups hold at most
/// 4 members of weight at most 3), 4 `pinned` (`@oneshot`), 5 `plain` (an
/// action profile without a selector), else `direct`. Each is keyed on
/// the destination MAC; the selectors hash the source MAC.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { ethernet_t eth; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action_selector(HashAlgorithm.crc16, 32w64, 32w16) wide;
    action_selector(HashAlgorithm.crc16, 32w64, 32w16) ecmp;
    @max_group_size(4) @selector_size_semantics(sum_of_members) @max_member_weight(3)
    action_selector(HashAlgorithm.crc16, 32w16, 32w16) narrow;
    action_selector(HashAlgorithm.crc16, 32w16, 32w16) pins;
    action_profile(32w8) plain_profile;
    action to_port(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table route {
        key = { hdr.eth.dst: exact; hdr.eth.src: selector; }
        actions = { to_port; drop; }
        implementation = wide;
    }
    table groups {
        key = { hdr.eth.dst: exact; hdr.eth.src: selector; }
        actions = { to_port; drop; }
        implementation = ecmp;
    }
    table small {
        key = { hdr.eth.dst: exact; hdr.eth.src: selector; }
        actions = { to_port; drop; }
        implementation = narrow;
    }
    @oneshot
    table pinned {
        key = { hdr.eth.dst: exact; hdr.eth.src: selector; }
        actions = { to_port; drop; }
        implementation = pins;
    }
    table plain {
        key = { hdr.eth.dst: exact; }
        actions = { to_port; drop; }
        implementation = plain_profile;
    }
    table direct {
        key = { hdr.eth.dst: exact; }
        actions = { to_port; drop; }
    }
    apply {
        if (hdr.eth.etype == 1) { route.apply(); }
        else if (hdr.eth.etype == 2) { groups.apply(); }
        else if (hdr.eth.etype == 3) { small.apply(); }
        else if (hdr.eth.etype == 4) { pinned.apply(); }
        else if (hdr.eth.etype == 5) { plain.apply(); }
        else { direct.apply(); }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

const ELECTION: u64 = 10;

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("oneshot_test.p4", PROGRAM.to_string(), Some(3))
}

/// The ids the tests use: tables, actions, and each table's profile.
struct Ids {
    route: u32,
    groups: u32,
    small: u32,
    pinned: u32,
    plain: u32,
    direct: u32,
    to_port: u32,
    /// The profiles (by the tables using them).
    wide: u32,
    ecmp: u32,
    narrow: u32,
    pins: u32,
}

/// The EtherType that sends a frame through `table`.
fn etype(table: &str) -> u16 {
    match table {
        "route" => 1,
        "groups" => 2,
        "small" => 3,
        "pinned" => 4,
        "plain" => 5,
        _ => 6,
    }
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
    let (route, groups, small, pinned, plain) = (
        id("I.route"),
        id("I.groups"),
        id("I.small"),
        id("I.pinned"),
        id("I.plain"),
    );
    Ids {
        route,
        groups,
        small,
        pinned,
        plain,
        direct: id("I.direct"),
        to_port: id("I.to_port"),
        wide: implementation(route),
        ecmp: implementation(groups),
        narrow: implementation(small),
        pins: implementation(pinned),
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

fn to_port(ids: &Ids, port: u8) -> p4::Action {
    p4::Action {
        action_id: ids.to_port,
        params: vec![p4::action::Param {
            param_id: 1,
            value: vec![port],
        }],
    }
}

/// One action of a one-shot set: to `port`, with `weight`.
fn act(ids: &Ids, port: u8, weight: i32) -> p4::ActionProfileAction {
    p4::ActionProfileAction {
        action: Some(to_port(ids, port)),
        weight,
        watch_kind: None,
    }
}

fn one_shot(actions: Vec<p4::ActionProfileAction>) -> Option<p4::TableAction> {
    Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::ActionProfileActionSet(
            p4::ActionProfileActionSet {
                action_profile_actions: actions,
                ..Default::default()
            },
        )),
    })
}

fn to_member(id: u32) -> Option<p4::TableAction> {
    Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::ActionProfileMemberId(id)),
    })
}

fn to_group(id: u32) -> Option<p4::TableAction> {
    Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::ActionProfileGroupId(id)),
    })
}

fn member(ids: &Ids, profile: u32, id: u32, port: u8) -> E {
    E::ActionProfileMember(p4::ActionProfileMember {
        action_profile_id: profile,
        member_id: id,
        action: Some(to_port(ids, port)),
    })
}

fn group(profile: u32, id: u32, members: &[(u32, i32)]) -> p4::ActionProfileGroup {
    p4::ActionProfileGroup {
        action_profile_id: profile,
        group_id: id,
        members: members
            .iter()
            .map(|&(member_id, weight)| p4::action_profile_group::Member {
                member_id,
                weight,
                watch_kind: None,
            })
            .collect(),
        max_size: 0,
    }
}

/// A frame to 00:..:`dst` from 02:00:00:00:`flow` (big-endian) with
/// EtherType `etype`.
fn frame(dst: u8, flow: u16, etype: u16) -> Vec<u8> {
    let [hi, lo] = flow.to_be_bytes();
    let mut f = vec![0, 0, 0, 0, 0, dst, 2, 0, 0, 0, hi, lo];
    f.extend_from_slice(&etype.to_be_bytes());
    f.extend_from_slice(b"janus one-shot payload");
    f
}

/// The port each of flows `0..n` to `dst` through `table` leaves by
/// (`None`: dropped).
fn ports(s: &Server, table: &str, dst: u8, n: u16) -> Vec<Option<u32>> {
    (0..n)
        .map(|flow| {
            let out = s
                .switch
                .inject(1, &frame(dst, flow, etype(table)))
                .expect("the packet goes through");
            out.first().map(|(p, _)| *p)
        })
        .collect()
}

/// How many of `flows` left by each port.
fn histogram(flows: &[Option<u32>]) -> BTreeMap<u32, usize> {
    let mut out = BTreeMap::new();
    for p in flows.iter().flatten() {
        *out.entry(*p).or_default() += 1;
    }
    out
}

/// Asserts that `got` spreads `n` flows over the ports of `want` in
/// proportion to their weights (within a fifth of each share; the hash is
/// fixed, so the test is deterministic).
fn assert_spread(got: &BTreeMap<u32, usize>, want: &[(u32, usize)], n: usize) {
    let total: usize = want.iter().map(|(_, w)| w).sum();
    let ports: Vec<u32> = got.keys().copied().collect();
    let wanted: Vec<u32> = want.iter().map(|(p, _)| *p).collect();
    assert_eq!(ports, wanted, "ports used: {got:?}");
    for &(port, weight) in want {
        let expect = n * weight / total;
        let seen = got[&port];
        assert!(
            seen.abs_diff(expect) * 5 <= expect,
            "port {port}: {seen} of {n} flows, expected about {expect} (weights {want:?}, got {got:?})"
        );
    }
}

async fn read(c: &mut P4RuntimeClient<Channel>, e: E) -> Vec<E> {
    read_entities(c, vec![entity(e)])
        .await
        .expect("read")
        .into_iter()
        .filter_map(|e| e.entity)
        .collect()
}

/// Every table entry, member and group the server reports, as a set (a
/// read's order follows the tables' slots, which a rollback may change).
async fn state(c: &mut P4RuntimeClient<Channel>) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = read_entities(
        c,
        vec![
            entity(E::TableEntry(p4::TableEntry::default())),
            entity(E::ActionProfileMember(p4::ActionProfileMember::default())),
            entity(E::ActionProfileGroup(p4::ActionProfileGroup::default())),
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
) -> Result<(), Vec<Code>> {
    lib_client(c, "", ELECTION)
        .write(updates, atomicity)
        .await
        .map_err(|e| {
            update_codes(&status(e))
                .into_iter()
                .map(|(c, _)| c)
                .collect()
        })
}

/// The code of one update written alone.
async fn code_of(c: &mut P4RuntimeClient<Channel>, u: p4::Update) -> Code {
    match write_with(c, Atomicity::ContinueOnError, vec![u]).await {
        Ok(()) => Code::Ok,
        Err(codes) => codes[0],
    }
}

/// The one-shot set an entry read back holds.
fn set_of(e: &E) -> &p4::ActionProfileActionSet {
    match e {
        E::TableEntry(te) => match te.action.as_ref().and_then(|a| a.r#type.as_ref()) {
            Some(p4::table_action::Type::ActionProfileActionSet(s)) => s,
            other => panic!("not a one-shot set: {other:?}"),
        },
        other => panic!("not a table entry: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn group_members_are_picked_by_weight() {
    use p4::action_profile_group::member::WatchKind as W;
    let s = start().await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, ELECTION, cfg).await;

    // Members to ports 2, 3, 4 in a group of weights 1, 2, 5; member 2
    // watches port 7 (written zero-padded), member 3 port 9 (the
    // deprecated int32 form).
    let mut g = group(ids.ecmp, 1, &[(1, 1), (2, 2), (3, 5)]);
    g.members[1].watch_kind = Some(W::WatchPort(vec![0, 7]));
    #[allow(deprecated)]
    {
        g.members[2].watch_kind = Some(W::Watch(9));
    }
    write(
        &mut c,
        ELECTION,
        vec![
            upd(Insert, member(&ids, ids.ecmp, 1, 2)),
            upd(Insert, member(&ids, ids.ecmp, 2, 3)),
            upd(Insert, member(&ids, ids.ecmp, 3, 4)),
            upd(Insert, E::ActionProfileGroup(g.clone())),
            update(Insert, entry(ids.groups, 0x0a, to_group(1))),
        ],
    )
    .await
    .unwrap();
    const N: u16 = 4096;
    let flows = ports(&s, "groups", 0x0a, N);
    assert_spread(&histogram(&flows), &[(2, 1), (3, 2), (4, 5)], N.into());
    // Each flow keeps its member.
    assert_eq!(ports(&s, "groups", 0x0a, 256), flows[..256]);

    // Read back as written: the weights, the watch ports canonical.
    let mut want = g.clone();
    want.members[1].watch_kind = Some(W::WatchPort(vec![7]));
    let got = read(
        &mut c,
        E::ActionProfileGroup(p4::ActionProfileGroup {
            action_profile_id: ids.ecmp,
            group_id: 1,
            ..Default::default()
        }),
    )
    .await;
    assert_eq!(got, vec![E::ActionProfileGroup(want)]);

    // New weights take effect at once: 3 to port 2, 1 to port 4.
    write(
        &mut c,
        ELECTION,
        vec![upd(
            Modify,
            E::ActionProfileGroup(group(ids.ecmp, 1, &[(3, 1), (1, 3)])),
        )],
    )
    .await
    .unwrap();
    let flows = ports(&s, "groups", 0x0a, N);
    assert_spread(&histogram(&flows), &[(2, 3), (4, 1)], N.into());

    // Bad weights and watch ports are refused and change nothing.
    let before = state(&mut c).await;
    let mut far = group(ids.ecmp, 1, &[(1, 1)]);
    far.members[0].watch_kind = Some(W::WatchPort(vec![2, 0]));
    let mut negative_watch = group(ids.ecmp, 1, &[(1, 1)]);
    #[allow(deprecated)]
    {
        negative_watch.members[0].watch_kind = Some(W::Watch(-1));
    }
    let mut grown = group(ids.ecmp, 1, &[(1, 1)]);
    grown.max_size = 8;
    let bad = vec![
        (group(ids.ecmp, 1, &[(1, 0)]), Code::InvalidArgument),
        (group(ids.ecmp, 1, &[(1, -2)]), Code::InvalidArgument),
        (group(ids.ecmp, 1, &[(1, 1), (1, 2)]), Code::InvalidArgument),
        (far, Code::InvalidArgument),
        (negative_watch, Code::InvalidArgument),
        // max_size is fixed at INSERT.
        (grown, Code::InvalidArgument),
        // The weights of every group together exceed the selector's size.
        (
            group(ids.ecmp, 1, &[(1, 60), (2, 5)]),
            Code::ResourceExhausted,
        ),
    ];
    for (g, code) in bad {
        let u = upd(Modify, E::ActionProfileGroup(g.clone()));
        assert_eq!(code_of(&mut c, u).await, code, "{g:?}");
    }
    assert_eq!(state(&mut c).await, before);
    assert_eq!(ports(&s, "groups", 0x0a, 512), flows[..512]);

    // A group's own max_size bounds its weights (sum of weights).
    let mut capped = group(ids.ecmp, 2, &[(1, 2), (2, 2)]);
    capped.max_size = 3;
    assert_eq!(
        code_of(&mut c, upd(Insert, E::ActionProfileGroup(capped.clone()))).await,
        Code::ResourceExhausted
    );
    capped.members[1].weight = 1;
    write(
        &mut c,
        ELECTION,
        vec![upd(Insert, E::ActionProfileGroup(capped))],
    )
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_shot_sets_are_inserted_read_modified_and_deleted() {
    use p4::action_profile_action::WatchKind as W;
    let s = start().await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, ELECTION, cfg).await;

    // A member written by the client in the same selector: one-shot sets
    // do not disturb it (ids apart), and it is all a member read shows.
    write(
        &mut c,
        ELECTION,
        vec![upd(Insert, member(&ids, ids.wide, 1, 9))],
    )
    .await
    .unwrap();

    // Ports 2 and 3, weights 1 and 3; port 2's action watches port 2
    // (zero-padded), port 3's the deprecated way.
    let mut a = act(&ids, 2, 1);
    a.watch_kind = Some(W::WatchPort(vec![0, 2]));
    let mut b = act(&ids, 3, 3);
    #[allow(deprecated)]
    {
        b.watch_kind = Some(W::Watch(3));
    }
    let mut padded = a.clone();
    padded.action.as_mut().unwrap().params[0].value = vec![0, 2];
    write(
        &mut c,
        ELECTION,
        vec![update(
            Insert,
            entry(ids.route, 0x0a, one_shot(vec![padded, b.clone()])),
        )],
    )
    .await
    .unwrap();

    // Read back as written (canonical): the set, not a group id.
    let got = read(
        &mut c,
        E::TableEntry(p4::TableEntry {
            table_id: ids.route,
            ..Default::default()
        }),
    )
    .await;
    let mut want_a = a.clone();
    want_a.watch_kind = Some(W::WatchPort(vec![2]));
    assert_eq!(
        got,
        vec![E::TableEntry(entry(
            ids.route,
            0x0a,
            one_shot(vec![want_a.clone(), b.clone()])
        ))]
    );
    // The server's own members and group are nowhere to be read.
    let members = read(&mut c, E::ActionProfileMember(Default::default())).await;
    assert_eq!(members, vec![member(&ids, ids.wide, 1, 9)]);
    assert!(
        read(&mut c, E::ActionProfileGroup(Default::default()))
            .await
            .is_empty()
    );
    for id in 1..4 {
        let one = E::ActionProfileGroup(p4::ActionProfileGroup {
            action_profile_id: ids.wide,
            group_id: id,
            ..Default::default()
        });
        assert!(read(&mut c, one).await.is_empty(), "group {id}");
    }

    // The data plane: one flow in four to port 2, the rest to port 3.
    const N: u16 = 4096;
    let flows = ports(&s, "route", 0x0a, N);
    assert_spread(&histogram(&flows), &[(2, 1), (3, 3)], N.into());
    assert_eq!(ports(&s, "route", 0x0a, 256), flows[..256]);

    // MODIFY replaces the set.
    write(
        &mut c,
        ELECTION,
        vec![update(
            Modify,
            entry(ids.route, 0x0a, one_shot(vec![act(&ids, 4, 1)])),
        )],
    )
    .await
    .unwrap();
    assert!(ports(&s, "route", 0x0a, 64).iter().all(|p| *p == Some(4)));
    // The same action twice is two actions, read back so.
    let twice = vec![act(&ids, 5, 1), act(&ids, 5, 2)];
    write(
        &mut c,
        ELECTION,
        vec![update(
            Modify,
            entry(ids.route, 0x0a, one_shot(twice.clone())),
        )],
    )
    .await
    .unwrap();
    let got = read(&mut c, E::TableEntry(entry(ids.route, 0x0a, None))).await;
    assert_eq!(set_of(&got[0]).action_profile_actions, twice);
    assert!(ports(&s, "route", 0x0a, 64).iter().all(|p| *p == Some(5)));

    // A second entry with its own set; then both deleted: the packets
    // miss (port 0, v1model's default) and the profile has room again.
    write(
        &mut c,
        ELECTION,
        vec![update(
            Insert,
            entry(
                ids.route,
                0x0b,
                one_shot(vec![act(&ids, 6, 1), act(&ids, 7, 1)]),
            ),
        )],
    )
    .await
    .unwrap();
    let flows = ports(&s, "route", 0x0b, 256);
    assert_spread(&histogram(&flows), &[(6, 1), (7, 1)], 256);
    write(
        &mut c,
        ELECTION,
        vec![
            update(Delete, entry(ids.route, 0x0a, None)),
            update(Delete, entry(ids.route, 0x0b, None)),
        ],
    )
    .await
    .unwrap();
    assert!(
        read(
            &mut c,
            E::TableEntry(p4::TableEntry {
                table_id: ids.route,
                ..Default::default()
            })
        )
        .await
        .is_empty()
    );
    assert!(ports(&s, "route", 0x0a, 16).iter().all(|p| *p == Some(0)));

    // The selector holds 64 members (one is the client's): 63 entries of
    // one action fit, a 64th does not; deleted, one set of 63 fits.
    let fill: Vec<p4::Update> = (0..63)
        .map(|k| {
            update(
                Insert,
                entry(ids.route, 0x40 + k, one_shot(vec![act(&ids, 2, 1)])),
            )
        })
        .collect();
    write(&mut c, ELECTION, fill).await.unwrap();
    let over = update(
        Insert,
        entry(ids.route, 0x3f, one_shot(vec![act(&ids, 2, 1)])),
    );
    assert_eq!(code_of(&mut c, over).await, Code::ResourceExhausted);
    let empty: Vec<p4::Update> = (0..63)
        .map(|k| update(Delete, entry(ids.route, 0x40 + k, None)))
        .collect();
    write(&mut c, ELECTION, empty).await.unwrap();
    let big: Vec<p4::ActionProfileAction> = (0..63).map(|k| act(&ids, 2 + k, 1)).collect();
    write(
        &mut c,
        ELECTION,
        vec![update(Insert, entry(ids.route, 0x0a, one_shot(big)))],
    )
    .await
    .unwrap();
    let flows = ports(&s, "route", 0x0a, 1024);
    assert_eq!(histogram(&flows).len(), 63, "every action carries flows");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_one_shot_updates_change_nothing() {
    let s = start().await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, ELECTION, cfg).await;
    write(
        &mut c,
        ELECTION,
        vec![
            update(
                Insert,
                entry(
                    ids.route,
                    0x0a,
                    one_shot(vec![act(&ids, 2, 1), act(&ids, 3, 1)]),
                ),
            ),
            update(
                Insert,
                entry(ids.route, 0x0b, one_shot(vec![act(&ids, 4, 2)])),
            ),
        ],
    )
    .await
    .unwrap();
    let before = state(&mut c).await;
    let flows = ports(&s, "route", 0x0a, 512);

    let set = |actions| one_shot(actions);
    let mut no_param = act(&ids, 2, 1);
    no_param.action.as_mut().unwrap().params.clear();
    let mut unknown_action = act(&ids, 2, 1);
    unknown_action.action.as_mut().unwrap().action_id = 0x01ff_fff0;
    let mut no_action = act(&ids, 2, 1);
    no_action.action = None;
    let mut far_port = act(&ids, 2, 1);
    far_port.watch_kind = Some(p4::action_profile_action::WatchKind::WatchPort(vec![2, 0]));
    let mut random = set(vec![act(&ids, 2, 1)]);
    if let Some(p4::table_action::Type::ActionProfileActionSet(s)) =
        random.as_mut().and_then(|a| a.r#type.as_mut())
    {
        s.action_selection_mode = p4::action_profile_action_set::ActionSelectionMode::Random as i32;
    }
    let too_many: Vec<p4::ActionProfileAction> = (0..70).map(|_| act(&ids, 2, 1)).collect();
    let bad: Vec<(p4::update::Type, p4::TableEntry, Code)> = vec![
        (
            Insert,
            entry(ids.route, 0x0c, set(vec![])),
            Code::InvalidArgument,
        ),
        (
            Insert,
            entry(ids.route, 0x0c, set(vec![act(&ids, 2, 0)])),
            Code::InvalidArgument,
        ),
        (
            Insert,
            entry(ids.route, 0x0c, set(vec![act(&ids, 2, -3)])),
            Code::InvalidArgument,
        ),
        (
            Insert,
            entry(ids.route, 0x0c, set(vec![unknown_action])),
            Code::InvalidArgument,
        ),
        (
            Insert,
            entry(ids.route, 0x0c, set(vec![no_param])),
            Code::InvalidArgument,
        ),
        (
            Insert,
            entry(ids.route, 0x0c, set(vec![no_action])),
            Code::InvalidArgument,
        ),
        (
            Insert,
            entry(ids.route, 0x0c, set(vec![far_port])),
            Code::InvalidArgument,
        ),
        (Insert, entry(ids.route, 0x0c, random), Code::Unimplemented),
        (
            Insert,
            entry(ids.route, 0x0c, set(too_many)),
            Code::ResourceExhausted,
        ),
        // An action set on a table without a selector.
        (
            Insert,
            entry(ids.direct, 0x0c, set(vec![act(&ids, 2, 1)])),
            Code::InvalidArgument,
        ),
        (
            Insert,
            entry(ids.plain, 0x0c, set(vec![act(&ids, 2, 1)])),
            Code::InvalidArgument,
        ),
        // The key exists / does not.
        (
            Insert,
            entry(ids.route, 0x0a, set(vec![act(&ids, 5, 1)])),
            Code::AlreadyExists,
        ),
        (
            Modify,
            entry(ids.route, 0x0c, set(vec![act(&ids, 5, 1)])),
            Code::NotFound,
        ),
        // A bad set in a MODIFY leaves the old set.
        (
            Modify,
            entry(ids.route, 0x0a, set(vec![act(&ids, 5, 0)])),
            Code::InvalidArgument,
        ),
        // As the default action.
        (
            Modify,
            p4::TableEntry {
                table_id: ids.route,
                is_default_action: true,
                action: set(vec![act(&ids, 5, 1)]),
                ..Default::default()
            },
            Code::Unimplemented,
        ),
    ];
    for (kind, te, code) in bad {
        let u = update(kind, te.clone());
        assert_eq!(code_of(&mut c, u).await, code, "{kind:?} {te:?}");
        assert_eq!(state(&mut c).await, before, "after {kind:?} {te:?}");
    }
    assert_eq!(ports(&s, "route", 0x0a, 512), flows);

    // An all-or-nothing batch that inserts, modifies and deletes one-shot
    // entries and then fails is rolled back whole, in both modes.
    for mode in [Atomicity::RollbackOnError, Atomicity::DataplaneAtomic] {
        let batch = vec![
            update(
                Insert,
                entry(ids.route, 0x0c, one_shot(vec![act(&ids, 6, 1)])),
            ),
            update(
                Modify,
                entry(
                    ids.route,
                    0x0a,
                    one_shot(vec![act(&ids, 7, 1), act(&ids, 8, 5)]),
                ),
            ),
            update(Delete, entry(ids.route, 0x0b, None)),
            update(
                Insert,
                entry(ids.route, 0x0d, one_shot(vec![act(&ids, 9, 0)])),
            ),
        ];
        let codes = write_with(&mut c, mode, batch).await.unwrap_err();
        assert_eq!(
            codes,
            vec![
                Code::Aborted,
                Code::Aborted,
                Code::Aborted,
                Code::InvalidArgument
            ]
        );
        assert_eq!(state(&mut c).await, before);
        assert_eq!(ports(&s, "route", 0x0a, 512), flows);
        assert!(ports(&s, "route", 0x0b, 16).iter().all(|p| *p == Some(4)));
    }
    // Without the bad update the batch is applied.
    write_with(
        &mut c,
        Atomicity::RollbackOnError,
        vec![
            update(
                Modify,
                entry(ids.route, 0x0a, one_shot(vec![act(&ids, 7, 1)])),
            ),
            update(Delete, entry(ids.route, 0x0b, None)),
        ],
    )
    .await
    .unwrap();
    assert!(ports(&s, "route", 0x0a, 16).iter().all(|p| *p == Some(7)));
    assert!(ports(&s, "route", 0x0b, 16).iter().all(|p| *p == Some(0)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_selector_is_programmed_one_way_and_oneshot_tables_take_sets_only() {
    let s = start().await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, ELECTION, cfg).await;
    write(
        &mut c,
        ELECTION,
        vec![
            upd(Insert, member(&ids, ids.pins, 1, 2)),
            upd(Insert, E::ActionProfileGroup(group(ids.pins, 1, &[(1, 1)]))),
            upd(Insert, member(&ids, ids.ecmp, 1, 2)),
            update(Insert, entry(ids.groups, 0x0a, to_member(1))),
            upd(Insert, member(&ids, ids.wide, 1, 2)),
            update(
                Insert,
                entry(ids.route, 0x0a, one_shot(vec![act(&ids, 3, 1)])),
            ),
        ],
    )
    .await
    .unwrap();
    let before = state(&mut c).await;
    let bad = vec![
        // `pinned` is @oneshot: no member or group ids.
        entry(ids.pinned, 0x0a, to_member(1)),
        entry(ids.pinned, 0x0a, to_group(1)),
        // `groups`'s selector is programmed with ids: no one-shot set.
        entry(ids.groups, 0x0b, one_shot(vec![act(&ids, 3, 1)])),
        // `route`'s selector holds one-shot sets: no member ids.
        entry(ids.route, 0x0b, to_member(1)),
    ];
    for te in bad {
        assert_eq!(
            code_of(&mut c, update(Insert, te.clone())).await,
            Code::InvalidArgument,
            "{te:?}"
        );
    }
    assert_eq!(state(&mut c).await, before);
    // The @oneshot table takes a set; the only entry of a selector may
    // change style.
    write(
        &mut c,
        ELECTION,
        vec![
            update(
                Insert,
                entry(ids.pinned, 0x0a, one_shot(vec![act(&ids, 4, 1)])),
            ),
            update(
                Modify,
                entry(ids.groups, 0x0a, one_shot(vec![act(&ids, 5, 1)])),
            ),
            update(Modify, entry(ids.route, 0x0a, to_member(1))),
        ],
    )
    .await
    .unwrap();
    assert_eq!(ports(&s, "pinned", 0x0a, 8), vec![Some(4); 8]);
    assert_eq!(ports(&s, "groups", 0x0a, 8), vec![Some(5); 8]);
    assert_eq!(ports(&s, "route", 0x0a, 8), vec![Some(2); 8]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_group_size_bounds_groups_and_sets_by_member_count() {
    let s = start().await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, ELECTION, cfg).await;
    // `narrow`: @max_group_size(4), @selector_size_semantics(sum_of_members),
    // @max_member_weight(3).
    let members: Vec<p4::Update> = (1..=5)
        .map(|m| upd(Insert, member(&ids, ids.narrow, m, m as u8 + 1)))
        .collect();
    write(&mut c, ELECTION, members).await.unwrap();
    let before = state(&mut c).await;
    let mut over_cap = group(ids.narrow, 1, &[(1, 1)]);
    over_cap.max_size = 5;
    let groups = vec![
        (
            group(ids.narrow, 1, &[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]),
            Code::ResourceExhausted,
        ),
        (group(ids.narrow, 1, &[(1, 4)]), Code::InvalidArgument),
        (over_cap, Code::InvalidArgument),
    ];
    for (g, code) in groups {
        let u = upd(Insert, E::ActionProfileGroup(g.clone()));
        assert_eq!(code_of(&mut c, u).await, code, "{g:?}");
    }
    assert_eq!(state(&mut c).await, before);
    // Four members of weight 3 count 4, not 12.
    write(
        &mut c,
        ELECTION,
        vec![upd(
            Insert,
            E::ActionProfileGroup(group(ids.narrow, 1, &[(1, 3), (2, 3), (3, 3), (4, 1)])),
        )],
    )
    .await
    .unwrap();
    // The same rules for one-shot sets (in a fresh server: this selector
    // is now programmed with ids), all INVALID_ARGUMENT.
    let s = start().await;
    let (mut c, _stream) = primary_with(&s, ELECTION, config()).await;
    let five: Vec<p4::ActionProfileAction> = (0..5).map(|k| act(&ids, 2 + k, 1)).collect();
    for set in [five, vec![act(&ids, 2, 4)]] {
        let u = update(Insert, entry(ids.small, 0x0a, one_shot(set)));
        assert_eq!(code_of(&mut c, u).await, Code::InvalidArgument);
    }
    let four: Vec<p4::ActionProfileAction> = (0..4).map(|k| act(&ids, 2 + k, 3)).collect();
    write(
        &mut c,
        ELECTION,
        vec![update(Insert, entry(ids.small, 0x0a, one_shot(four)))],
    )
    .await
    .unwrap();
    let flows = ports(&s, "small", 0x0a, 4096);
    assert_spread(&histogram(&flows), &[(2, 1), (3, 1), (4, 1), (5, 1)], 4096);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_journal_and_snapshots_restore_one_shot_entries() {
    // Without snapshots (every batch replayed), and compacted every two
    // batches (the snapshot holds the sets as read).
    for (name, every) in [("replay", 0), ("snapshot", 2)] {
        let mut cfg = state_dir("oneshot", name);
        cfg.snapshot_every = every;
        let info = config().p4info.unwrap();
        let ids = ids_of(&info);
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
                            one_shot(vec![act(&ids, 2, 1), act(&ids, 3, 2)]),
                        ),
                    ),
                    update(
                        Insert,
                        entry(ids.route, 0x0b, one_shot(vec![act(&ids, 4, 1)])),
                    ),
                ],
                vec![
                    upd(Insert, member(&ids, ids.ecmp, 1, 5)),
                    upd(Insert, member(&ids, ids.ecmp, 2, 6)),
                    upd(
                        Insert,
                        E::ActionProfileGroup(group(ids.ecmp, 1, &[(1, 1), (2, 3)])),
                    ),
                    update(Insert, entry(ids.groups, 0x0a, to_group(1))),
                ],
                vec![
                    update(
                        Modify,
                        entry(
                            ids.route,
                            0x0a,
                            one_shot(vec![act(&ids, 7, 3), act(&ids, 8, 1)]),
                        ),
                    ),
                    update(
                        Insert,
                        entry(ids.pinned, 0x0a, one_shot(vec![act(&ids, 9, 1)])),
                    ),
                ],
                vec![update(Delete, entry(ids.route, 0x0b, None))],
                // Refused: journaled as nothing.
                vec![update(
                    Insert,
                    entry(ids.route, 0x0c, one_shot(vec![act(&ids, 9, 0)])),
                )],
            ];
            for (i, b) in batches.into_iter().enumerate() {
                let result = write(&mut c, ELECTION, b).await;
                assert_eq!(result.is_ok(), i < 4, "batch {i}: {result:?}");
            }
            let flows = (
                ports(&s, "route", 0x0a, 512),
                ports(&s, "groups", 0x0a, 512),
                ports(&s, "pinned", 0x0a, 8),
            );
            (state(&mut c).await, flows)
        };
        wait_unlocked(&cfg).await;
        let s = start_in(&cfg).await;
        let mut c = client(&s).await;
        assert_eq!(state(&mut c).await, seen, "{name}");
        let route = read(&mut c, E::TableEntry(entry(ids.route, 0x0a, None))).await;
        assert_eq!(
            set_of(&route[0]).action_profile_actions,
            vec![act(&ids, 7, 3), act(&ids, 8, 1)]
        );
        assert!(
            read(
                &mut c,
                E::ActionProfileMember(p4::ActionProfileMember {
                    action_profile_id: ids.wide,
                    ..Default::default()
                })
            )
            .await
            .is_empty()
        );
        let now = (
            ports(&s, "route", 0x0a, 512),
            ports(&s, "groups", 0x0a, 512),
            ports(&s, "pinned", 0x0a, 8),
        );
        assert_eq!(now, flows, "{name}: the data plane after the restart");
        assert!(ports(&s, "route", 0x0b, 8).iter().all(|p| *p == Some(0)));

        // RECONCILE_AND_COMMIT of the same program carries them too.
        let mut stream = Stream::open(&mut c).await;
        stream.arbitrate(ELECTION).await;
        assert_eq!(stream.answer().await.unwrap().0, Code::Ok);
        set_pipeline(
            &mut c,
            ELECTION,
            config(),
            p4::set_forwarding_pipeline_config_request::Action::ReconcileAndCommit,
        )
        .await
        .expect("reconciled");
        assert_eq!(state(&mut c).await, seen, "{name}: reconciled");
        assert_eq!(ports(&s, "route", 0x0a, 512), flows.0);
        drop(stream);
        drop(s);
        wait_unlocked(&cfg).await;
        let _ = std::fs::remove_dir_all(&cfg.dir);
    }
}
