//! Control-plane integrity: an update answered with an error changes
//! nothing, so the live state always equals the state its journal replays
//! to; quotas keep tenants out of each other's share; big batches stay
//! linear and never stall other clients; a batch's errors always reach the
//! client.

mod common;

use common::*;
use janus_ctrl::batch::{self, Slice, Writer};
use janus_ctrl::device::ForwardingPipeline;
use janus_ctrl::journal::{Journal, StateConfig};
use janus_ctrl::proto::janus::TenantQuota;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::quotas::{quota_entity, quota_of};
use janus_ctrl::roles::Access;
use p4::entity::Entity as E;
use p4::update::Type;
use p4::write_request::Atomicity;
use proptest::prelude::*;
use prost::Message;
use std::collections::BTreeSet;
use tonic::Code;

/// Every kind of entity: a table with a direct counter and a direct meter,
/// a tenant table (default share 3), a plain table, a table over an action
/// profile, a counter, a meter, a register, a value set, a digest, and
/// the packet replication engine.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { ethernet_t eth; }
struct learn_t { bit<48> src; }
struct meta_t { bit<16> tenant; bit<8> colour; bit<16> seen; }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) special;
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) { special: accept; default: accept; }
    }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    direct_counter(CounterType.packets_and_bytes) fwd_hits;
    direct_meter<bit<8>>(MeterType.bytes) fwd_rate;
    counter(8, CounterType.packets) hits;
    meter(8, MeterType.packets) rate;
    register<bit<16>>(8) seen;
    action to_port(bit<9> port) { sm.egress_spec = port; fwd_rate.read(m.colour); }
    action drop() { mark_to_drop(sm); }
    action set_tenant(bit<16> t) { m.tenant = t; }
    table fwd {
        key = { hdr.eth.dst : exact; }
        actions = { to_port; drop; }
        counters = fwd_hits;
        meters = fwd_rate;
        default_action = drop();
        size = 6;
    }
    table tenants {
        key = { sm.ingress_port : exact; }
        actions = { set_tenant; NoAction; }
        default_action = NoAction();
        size = 8;
    }
    @janus_tenant_key("m.tenant") @janus_tenant_quota(3)
    table acl {
        key = { m.tenant : exact; hdr.eth.src : ternary; }
        actions = { to_port; drop; }
        default_action = drop();
        size = 8;
    }
    table sel {
        key = { hdr.eth.etype : exact; }
        actions = { to_port; drop; }
        implementation = action_profile(32w4);
        size = 4;
    }
    apply {
        hits.count(0);
        rate.execute_meter(0, m.colour);
        seen.read(m.seen, 0);
        tenants.apply();
        fwd.apply();
        acl.apply();
        sel.apply();
        digest<learn_t>(1, { hdr.eth.src });
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("integrity.p4", PROGRAM.to_string(), None)
}

/// The ids of the program's objects, by name.
struct Ids {
    fwd: u32,
    tenants: u32,
    acl: u32,
    sel: u32,
    to_port: u32,
    drop: u32,
    set_tenant: u32,
    hits: u32,
    rate: u32,
    seen: u32,
    special: u32,
    learn: u32,
    profile: u32,
}

fn id(info: &cfg::P4Info, name: &str) -> u32 {
    let pre = info
        .tables
        .iter()
        .filter_map(|t| t.preamble.as_ref())
        .chain(info.actions.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.counters.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.meters.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.registers.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.value_sets.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.digests.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(
            info.action_profiles
                .iter()
                .filter_map(|x| x.preamble.as_ref()),
        )
        .find(|p| p.name == name || p.name.ends_with(&format!(".{name}")));
    pre.unwrap_or_else(|| panic!("no {name} in the P4Info")).id
}

impl Ids {
    fn of(info: &cfg::P4Info) -> Ids {
        Ids {
            fwd: id(info, "I.fwd"),
            tenants: id(info, "I.tenants"),
            acl: id(info, "I.acl"),
            sel: id(info, "I.sel"),
            to_port: id(info, "I.to_port"),
            drop: id(info, "I.drop"),
            set_tenant: id(info, "I.set_tenant"),
            hits: id(info, "I.hits"),
            rate: id(info, "I.rate"),
            seen: id(info, "I.seen"),
            special: id(info, "special"),
            learn: info.digests[0].preamble.as_ref().unwrap().id,
            profile: info.action_profiles[0].preamble.as_ref().unwrap().id,
        }
    }
}

fn upd(kind: Type, e: E) -> p4::Update {
    p4::Update {
        r#type: kind as i32,
        entity: Some(p4::Entity { entity: Some(e) }),
    }
}

fn exact(field_id: u32, value: &[u8]) -> p4::FieldMatch {
    p4::FieldMatch {
        field_id,
        field_match_type: Some(p4::field_match::FieldMatchType::Exact(
            p4::field_match::Exact {
                value: value.to_vec(),
            },
        )),
    }
}

fn ternary(field_id: u32, value: &[u8], mask: &[u8]) -> p4::FieldMatch {
    p4::FieldMatch {
        field_id,
        field_match_type: Some(p4::field_match::FieldMatchType::Ternary(
            p4::field_match::Ternary {
                value: value.to_vec(),
                mask: mask.to_vec(),
            },
        )),
    }
}

/// One generated update: a small choice of entities, keys and values, with
/// the mistakes clients make (wrong resources, widths, ids, kinds).
#[derive(Clone, Debug)]
enum Pick {
    Fwd {
        kind: u8,
        dst: u8,
        port: u16,
        meter: Option<(i64, i64)>,
        counts: Option<i64>,
        idle: bool,
    },
    Tenants {
        kind: u8,
        port: u8,
        tenant: u8,
    },
    Acl {
        kind: u8,
        tenant: u8,
        src: u8,
        priority: i32,
        meter: bool,
    },
    FwdDefault {
        drop: bool,
    },
    Counter {
        index: i64,
        packets: i64,
    },
    Meter {
        index: i64,
        cir: i64,
        pir: i64,
    },
    Register {
        index: i64,
        value: u32,
    },
    ValueSet {
        values: Vec<u16>,
    },
    Member {
        kind: u8,
        member: u32,
        port: u16,
    },
    Sel {
        kind: u8,
        etype: u8,
        member: u32,
    },
    Group {
        kind: u8,
        group: u32,
        ports: Vec<u8>,
    },
    Session {
        kind: u8,
        session: u32,
        ports: Vec<u8>,
    },
    Digest {
        kind: u8,
        max_list: i32,
    },
    Quota {
        kind: u8,
        tenant: u8,
        limit: u8,
    },
}

fn kind_of(k: u8) -> Type {
    match k % 4 {
        0 | 3 => Type::Insert,
        1 => Type::Modify,
        _ => Type::Delete,
    }
}

impl Pick {
    fn update(&self, ids: &Ids) -> p4::Update {
        let action = |id: u32, params: &[&[u8]]| action(id, params);
        match self {
            Pick::Fwd {
                kind,
                dst,
                port,
                meter,
                counts,
                idle,
            } => upd(
                kind_of(*kind),
                E::TableEntry(p4::TableEntry {
                    table_id: ids.fwd,
                    r#match: vec![exact(1, &[*dst])],
                    action: action(ids.to_port, &[&port.to_be_bytes()]),
                    meter_config: meter.map(|(cir, pir)| p4::MeterConfig {
                        cir,
                        cburst: 10,
                        pir,
                        pburst: 10,
                        eburst: 0,
                    }),
                    counter_data: counts.map(|packets| p4::CounterData {
                        byte_count: 0,
                        packet_count: packets,
                    }),
                    idle_timeout_ns: if *idle { 1_000_000 } else { 0 },
                    ..Default::default()
                }),
            ),
            Pick::Tenants { kind, port, tenant } => upd(
                kind_of(*kind),
                E::TableEntry(p4::TableEntry {
                    table_id: ids.tenants,
                    r#match: vec![exact(1, &[*port])],
                    action: action(ids.set_tenant, &[&[*tenant]]),
                    ..Default::default()
                }),
            ),
            Pick::Acl {
                kind,
                tenant,
                src,
                priority,
                meter,
            } => upd(
                kind_of(*kind),
                E::TableEntry(p4::TableEntry {
                    table_id: ids.acl,
                    r#match: vec![exact(1, &[*tenant]), ternary(2, &[*src], &[0xff])],
                    action: action(ids.drop, &[]),
                    priority: *priority,
                    meter_config: meter.then(p4::MeterConfig::default),
                    ..Default::default()
                }),
            ),
            Pick::FwdDefault { drop } => upd(
                Type::Modify,
                E::TableEntry(p4::TableEntry {
                    table_id: ids.fwd,
                    is_default_action: true,
                    action: if *drop {
                        action(ids.drop, &[])
                    } else {
                        action(ids.to_port, &[&[1]])
                    },
                    ..Default::default()
                }),
            ),
            Pick::Counter { index, packets } => upd(
                Type::Modify,
                E::CounterEntry(p4::CounterEntry {
                    counter_id: ids.hits,
                    index: Some(p4::Index { index: *index }),
                    data: Some(p4::CounterData {
                        byte_count: 0,
                        packet_count: *packets,
                    }),
                }),
            ),
            Pick::Meter { index, cir, pir } => upd(
                Type::Modify,
                E::MeterEntry(p4::MeterEntry {
                    meter_id: ids.rate,
                    index: Some(p4::Index { index: *index }),
                    config: Some(p4::MeterConfig {
                        cir: *cir,
                        cburst: 5,
                        pir: *pir,
                        pburst: 5,
                        eburst: 0,
                    }),
                    counter_data: None,
                }),
            ),
            Pick::Register { index, value } => upd(
                Type::Modify,
                E::RegisterEntry(p4::RegisterEntry {
                    register_id: ids.seen,
                    index: Some(p4::Index { index: *index }),
                    data: Some(p4::P4Data {
                        data: Some(p4::p4_data::Data::Bitstring(value.to_be_bytes().to_vec())),
                    }),
                }),
            ),
            Pick::ValueSet { values } => upd(
                Type::Modify,
                E::ValueSetEntry(p4::ValueSetEntry {
                    value_set_id: ids.special,
                    members: values
                        .iter()
                        .map(|v| p4::ValueSetMember {
                            r#match: vec![exact(1, &v.to_be_bytes())],
                        })
                        .collect(),
                }),
            ),
            Pick::Member { kind, member, port } => upd(
                kind_of(*kind),
                E::ActionProfileMember(p4::ActionProfileMember {
                    action_profile_id: ids.profile,
                    member_id: *member,
                    action: Some(p4::Action {
                        action_id: ids.to_port,
                        params: vec![p4::action::Param {
                            param_id: 1,
                            value: port.to_be_bytes().to_vec(),
                        }],
                    }),
                }),
            ),
            Pick::Sel {
                kind,
                etype,
                member,
            } => upd(
                kind_of(*kind),
                E::TableEntry(p4::TableEntry {
                    table_id: ids.sel,
                    r#match: vec![exact(1, &[*etype])],
                    action: Some(p4::TableAction {
                        r#type: Some(p4::table_action::Type::ActionProfileMemberId(*member)),
                    }),
                    ..Default::default()
                }),
            ),
            Pick::Group { kind, group, ports } => upd(
                kind_of(*kind),
                E::PacketReplicationEngineEntry(p4::PacketReplicationEngineEntry {
                    r#type: Some(
                        p4::packet_replication_engine_entry::Type::MulticastGroupEntry(
                            p4::MulticastGroupEntry {
                                multicast_group_id: *group,
                                replicas: replicas(ports),
                                metadata: Vec::new(),
                            },
                        ),
                    ),
                }),
            ),
            Pick::Session {
                kind,
                session,
                ports,
            } => upd(
                kind_of(*kind),
                E::PacketReplicationEngineEntry(p4::PacketReplicationEngineEntry {
                    r#type: Some(
                        p4::packet_replication_engine_entry::Type::CloneSessionEntry(
                            p4::CloneSessionEntry {
                                session_id: *session,
                                replicas: replicas(ports),
                                class_of_service: 0,
                                packet_length_bytes: 0,
                            },
                        ),
                    ),
                }),
            ),
            Pick::Digest { kind, max_list } => upd(
                kind_of(*kind),
                E::DigestEntry(p4::DigestEntry {
                    digest_id: ids.learn,
                    config: Some(p4::digest_entry::Config {
                        max_timeout_ns: 1000,
                        max_list_size: *max_list,
                        ack_timeout_ns: 1000,
                    }),
                }),
            ),
            Pick::Quota {
                kind,
                tenant,
                limit,
            } => {
                let e = quota_entity(
                    ids.acl,
                    TenantQuota {
                        tenant: u64::from(*tenant),
                        limit: u64::from(*limit),
                        used: 0,
                    },
                );
                upd(kind_of(*kind), e.entity.unwrap())
            }
        }
    }
}

fn replicas(ports: &[u8]) -> Vec<p4::Replica> {
    ports
        .iter()
        .enumerate()
        .map(|(i, p)| p4::Replica {
            port_kind: Some(p4::replica::PortKind::Port(vec![*p])),
            instance: (i % 2) as u32,
            backup_replicas: Vec::new(),
        })
        .collect()
}

fn pick() -> impl Strategy<Value = Pick> {
    let kind = 0u8..4;
    prop_oneof![
        (
            kind.clone(),
            0u8..8,
            prop_oneof![Just(3u16), Just(511), Just(512)],
            proptest::option::of(prop_oneof![
                Just((5i64, 10i64)),
                Just((10, 5)),
                Just((-1, 5))
            ]),
            proptest::option::of(prop_oneof![Just(7i64), Just(-1)]),
            proptest::bool::weighted(0.1),
        )
            .prop_map(|(kind, dst, port, meter, counts, idle)| Pick::Fwd {
                kind,
                dst,
                port,
                meter,
                counts,
                idle
            }),
        (kind.clone(), 0u8..4, 1u8..4).prop_map(|(kind, port, tenant)| Pick::Tenants {
            kind,
            port,
            tenant
        }),
        (
            kind.clone(),
            1u8..4,
            0u8..6,
            prop_oneof![Just(1i32), Just(0), Just(5)],
            proptest::bool::weighted(0.15)
        )
            .prop_map(|(kind, tenant, src, priority, meter)| Pick::Acl {
                kind,
                tenant,
                src,
                priority,
                meter
            }),
        any::<bool>().prop_map(|drop| Pick::FwdDefault { drop }),
        (
            prop_oneof![Just(0i64), Just(3), Just(8), Just(-1)],
            -1i64..4
        )
            .prop_map(|(index, packets)| Pick::Counter { index, packets }),
        (
            prop_oneof![Just(0i64), Just(7), Just(9)],
            0i64..20,
            0i64..20
        )
            .prop_map(|(index, cir, pir)| Pick::Meter { index, cir, pir }),
        (
            prop_oneof![Just(0i64), Just(7), Just(8)],
            prop_oneof![Just(5u32), Just(70_000)]
        )
            .prop_map(|(index, value)| Pick::Register { index, value }),
        proptest::collection::vec(0u16..6, 0..6).prop_map(|values| Pick::ValueSet { values }),
        (kind.clone(), 0u32..4, prop_oneof![Just(2u16), Just(600)])
            .prop_map(|(kind, member, port)| Pick::Member { kind, member, port }),
        (kind.clone(), 0u8..6, 0u32..4).prop_map(|(kind, etype, member)| Pick::Sel {
            kind,
            etype,
            member
        }),
        (
            kind.clone(),
            0u32..4,
            proptest::collection::vec(0u8..5, 0..4)
        )
            .prop_map(|(kind, group, ports)| Pick::Group { kind, group, ports }),
        (
            kind.clone(),
            0u32..4,
            proptest::collection::vec(0u8..5, 0..4)
        )
            .prop_map(|(kind, session, ports)| Pick::Session {
                kind,
                session,
                ports
            }),
        (kind.clone(), prop_oneof![Just(4i32), Just(-1)])
            .prop_map(|(kind, max_list)| Pick::Digest { kind, max_list }),
        (kind, 1u8..4, 0u8..5).prop_map(|(kind, tenant, limit)| Pick::Quota {
            kind,
            tenant,
            limit
        }),
    ]
}

#[derive(Clone, Debug)]
struct Batch {
    atomicity: Atomicity,
    /// 0: the operator; 1..: tenant N.
    writer: u8,
    picks: Vec<Pick>,
}

fn batch_strategy() -> impl Strategy<Value = Batch> {
    (
        prop_oneof![
            Just(Atomicity::ContinueOnError),
            Just(Atomicity::RollbackOnError),
            Just(Atomicity::DataplaneAtomic)
        ],
        prop_oneof![3 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
        proptest::collection::vec(pick(), 1..12),
    )
        .prop_map(|(atomicity, writer, picks)| Batch {
            atomicity,
            writer,
            picks,
        })
}

/// Everything the control plane can read back of a pipeline, in a
/// canonical order: what a client wrote (the snapshot) and the direct
/// resources.
fn state_of(p: &ForwardingPipeline) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = p
        .snapshot()
        .expect("snapshot")
        .iter()
        .map(|u| u.encode_to_vec())
        .collect();
    for e in [
        E::DirectCounterEntry(p4::DirectCounterEntry::default()),
        E::DirectMeterEntry(p4::DirectMeterEntry::default()),
        E::ExternEntry(p4::ExternEntry {
            extern_type_id: janus_ctrl::quotas::QUOTA_EXTERN_TYPE,
            ..Default::default()
        }),
    ] {
        let read = p
            .read_entity(&p4::Entity { entity: Some(e) })
            .expect("read");
        out.extend(read.iter().map(|e| e.encode_to_vec()));
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// After every batch the live state equals the state that replaying
    /// only the applied updates gives (what the journal holds), so every
    /// refused update changed nothing; an all-or-nothing batch that failed
    /// left the state as it was.
    #[test]
    fn refused_updates_leave_no_trace(
        batches in proptest::collection::vec(batch_strategy(), 1..8),
        compact_after in 0usize..8,
    ) {
        let config = config();
        let ids = Ids::of(config.p4info.as_ref().unwrap());
        let mut live = ForwardingPipeline::build(config.clone()).expect("pipeline");
        let mut replayed = ForwardingPipeline::build(config.clone()).expect("pipeline");
        let none = BTreeSet::new();
        // The real journal beside them, compacted once on the way.
        let dir = journal_dir();
        let state = StateConfig::new(dir.path.clone());
        let (mut journal, _) = Journal::open(&state).expect("journal");
        journal.start(&config, &[]).expect("journal start");
        for (n, b) in batches.iter().enumerate() {
            let updates: Vec<p4::Update> = b.picks.iter().map(|p| p.update(&ids)).collect();
            let access = match b.writer {
                0 => Access::Full,
                t => Access::Tenant(u64::from(t)),
            };
            let writer = Writer { access: &access, exclusive_elsewhere: &none };
            let before = state_of(&live);
            let outcome = batch::apply(&mut live, writer, b.atomicity, &updates, Slice::WHOLE);
            prop_assert_eq!(outcome.results.len(), updates.len());
            let applied = outcome.applied(&updates);
            for u in &applied {
                prop_assert!(replayed.apply(u).is_ok(), "an applied update does not replay: {:?}", u);
            }
            journal.append_batch(&applied).expect("journal append");
            if n == compact_after {
                journal.compact(&live).expect("compaction");
            }
            let after = state_of(&live);
            prop_assert_eq!(&after, &state_of(&replayed), "live and replayed differ after {:?}", b);
            if b.atomicity != Atomicity::ContinueOnError && applied.is_empty() {
                prop_assert_eq!(&after, &before, "a failed all-or-nothing batch changed the state");
            }
        }
        drop(journal);
        let (journal, contents) = Journal::open(&state).expect("the journal reopens");
        let restored = journal.replay(contents).expect("the journal replays").expect("a pipeline");
        prop_assert_eq!(state_of(&restored), state_of(&live), "the journal replays to another state");
    }
}

/// A temporary state directory, removed when dropped.
struct JournalDir {
    path: std::path::PathBuf,
}

impl Drop for JournalDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn journal_dir() -> JournalDir {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "janus-integrity-journal-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&path);
    JournalDir { path }
}

/// The findings: a refused INSERT (a direct meter config, counter data or
/// an idle timeout its table does not have) is not installed; deleting
/// the same key then fails, and the server restarts from its journal.
#[tokio::test]
async fn a_refused_insert_installs_nothing_and_the_journal_replays() {
    let dir = std::env::temp_dir().join(format!("janus-integrity-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let state = StateConfig::new(dir.clone());
    let cfg = config();
    let ids = Ids::of(cfg.p4info.as_ref().unwrap());
    {
        let s = start_with({
            let state = state.clone();
            move |s| {
                s.restore(&state).expect("state");
            }
        })
        .await;
        let (mut c, _stream) = primary_with(&s, 1, cfg.clone()).await;
        let refusals = [
            // acl has no direct meter.
            Pick::Acl {
                kind: 0,
                tenant: 1,
                src: 1,
                priority: 1,
                meter: true,
            },
            // fwd has no idle timeout.
            Pick::Fwd {
                kind: 0,
                dst: 1,
                port: 3,
                meter: None,
                counts: None,
                idle: true,
            },
            // A meter config with the committed rate above the peak.
            Pick::Fwd {
                kind: 0,
                dst: 2,
                port: 3,
                meter: Some((10, 5)),
                counts: None,
                idle: false,
            },
            // Negative counts.
            Pick::Fwd {
                kind: 0,
                dst: 3,
                port: 3,
                meter: None,
                counts: Some(-1),
                idle: false,
            },
        ];
        for atomicity in [Atomicity::ContinueOnError, Atomicity::RollbackOnError] {
            for p in &refusals {
                let e = refused(&c, vec![p.update(&ids)], atomicity).await;
                let codes = update_codes(&e);
                assert_eq!(codes[0].0, Code::InvalidArgument, "{p:?}: {codes:?}");
            }
        }
        let entries = all_entries(&mut c).await;
        assert!(
            entries.is_empty(),
            "refused inserts were installed: {entries:?}"
        );
        // Deleting them finds nothing, and journals nothing.
        let mut delete = refusals[0].clone();
        if let Pick::Acl { kind, meter, .. } = &mut delete {
            *kind = 2;
            *meter = false;
        }
        let e = write(&mut c, 1, vec![delete.update(&ids)])
            .await
            .unwrap_err();
        assert_eq!(update_codes(&e)[0].0, Code::NotFound);
        // A good write after them.
        write(
            &mut c,
            1,
            vec![
                Pick::Fwd {
                    kind: 0,
                    dst: 4,
                    port: 3,
                    meter: Some((5, 10)),
                    counts: Some(9),
                    idle: false,
                }
                .update(&ids),
            ],
        )
        .await
        .expect("a good insert");
    }
    // The server restarts from its journal, with the one good entry.
    wait_until_free(&state).await;
    let s = start_with({
        let state = state.clone();
        move |s| {
            s.restore(&state).expect("the journal replays");
        }
    })
    .await;
    let mut c = client(&s).await;
    let entries = read_entities(
        &mut c,
        vec![p4::Entity {
            entity: Some(E::TableEntry(p4::TableEntry {
                meter_config: Some(p4::MeterConfig::default()),
                ..Default::default()
            })),
        }],
    )
    .await
    .unwrap();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits (bounded) until no server holds the state directory.
async fn wait_until_free(state: &StateConfig) {
    let until = std::time::Instant::now() + LIMIT;
    while janus_ctrl::journal::Journal::open(state).is_err() {
        assert!(std::time::Instant::now() < until, "the state stays locked");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// A tenant that fills its quota of a shared table gets RESOURCE_EXHAUSTED
/// naming the quota; another tenant still inserts; the operator raises the
/// quota through P4Runtime and the tenant reads its own quota.
#[tokio::test]
async fn a_tenant_cannot_take_another_tenants_share() {
    let s = start().await;
    let cfg = config();
    let ids = Ids::of(cfg.p4info.as_ref().unwrap());
    let (c, _stream) = primary_with(&s, 1, cfg).await;
    let acl = |tenant: u8, src: u8| {
        Pick::Acl {
            kind: 0,
            tenant,
            src,
            priority: 1,
            meter: false,
        }
        .update(&ids)
    };
    // The default share is @janus_tenant_quota(3).
    let mut op = lib_client(&c, "", 1);
    op.write(
        (0..3).map(|src| acl(1, src)).collect(),
        Atomicity::ContinueOnError,
    )
    .await
    .expect("tenant 1's share");
    let e = status(
        op.write(vec![acl(1, 3)], Atomicity::ContinueOnError)
            .await
            .unwrap_err(),
    );
    let codes = update_codes(&e);
    assert_eq!(codes[0].0, Code::ResourceExhausted);
    assert!(codes[0].1.contains("quota"), "{}", codes[0].1);
    // Tenant 2 is not locked out.
    op.write(vec![acl(2, 0)], Atomicity::ContinueOnError)
        .await
        .expect("tenant 2 inserts");
    // The operator raises tenant 1's quota; it reads back with the use.
    let raise = quota_entity(
        ids.acl,
        TenantQuota {
            tenant: 1,
            limit: 5,
            used: 0,
        },
    );
    op.write(
        vec![upd(Type::Modify, raise.entity.unwrap())],
        Atomicity::ContinueOnError,
    )
    .await
    .expect("quota raised");
    op.write(vec![acl(1, 3)], Atomicity::ContinueOnError)
        .await
        .expect("within the new quota");
    let read = op
        .read(vec![p4::Entity {
            entity: Some(E::ExternEntry(p4::ExternEntry {
                extern_type_id: janus_ctrl::quotas::QUOTA_EXTERN_TYPE,
                ..Default::default()
            })),
        }])
        .await
        .expect("quotas");
    let quotas: Vec<(u64, u64, u64)> = read
        .iter()
        .filter_map(quota_of)
        .map(|(_, q)| (q.tenant, q.limit, q.used))
        .collect();
    assert_eq!(quotas, vec![(1, 5, 4), (2, 3, 1)]);
    // Deleting an entry gives its place back.
    let mut del = acl(1, 0);
    del.r#type = Type::Delete as i32;
    op.write(vec![del], Atomicity::ContinueOnError)
        .await
        .unwrap();
    op.write(vec![acl(1, 4), acl(1, 5)], Atomicity::ContinueOnError)
        .await
        .expect("back within the quota");
    op.write(vec![acl(1, 0)], Atomicity::ContinueOnError)
        .await
        .expect_err("one over the quota");
}

/// An INSERT into `table` (one exact key field) of key `key`.
fn insert(table_id: u32, key: u32, action: Option<p4::TableAction>) -> p4::Update {
    upd(
        Type::Insert,
        E::TableEntry(p4::TableEntry {
            table_id,
            r#match: vec![exact(1, &key.to_be_bytes())],
            action,
            ..Default::default()
        }),
    )
}

/// Every table entry the server holds.
async fn all_entries(
    c: &mut janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient<
        tonic::transport::Channel,
    >,
) -> Vec<p4::Entity> {
    read_entities(
        c,
        vec![p4::Entity {
            entity: Some(E::TableEntry(p4::TableEntry::default())),
        }],
    )
    .await
    .expect("a read of every table entry")
}

/// The status of a Write of `updates` that the server must refuse.
async fn refused(
    c: &janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient<tonic::transport::Channel>,
    updates: Vec<p4::Update>,
    atomicity: Atomicity,
) -> tonic::Status {
    status(
        lib_client(c, "", 1)
            .write(updates, atomicity)
            .await
            .expect_err("the server refuses the batch"),
    )
}

/// A batch whose per-update errors would overflow gRPC's metadata limit
/// still reaches the client with its first errors and a summary.
#[tokio::test]
async fn ten_thousand_failing_updates_report_their_errors() {
    let s = start().await;
    let cfg = config();
    let ids = Ids::of(cfg.p4info.as_ref().unwrap());
    let (c, _stream) = primary_with(&s, 1, cfg).await;
    // Each one names a port that does not fit bit<9>.
    let updates: Vec<p4::Update> = (0..10_000u32)
        .map(|i| insert(ids.tenants, i, action(ids.set_tenant, &[&[1, 0, 0]])))
        .collect();
    let e = refused(&c, updates, Atomicity::ContinueOnError).await;
    assert_eq!(e.code(), Code::Unknown, "{e:?}");
    assert!(
        e.message().starts_with("10000 of 10000 updates failed"),
        "{}",
        e.message()
    );
    assert!(e.message().contains("OUT_OF_RANGE"), "{}", e.message());
    let codes = update_codes(&e);
    assert!(!codes.is_empty() && codes.len() < 10_000, "{}", codes.len());
    assert!(codes.iter().all(|(c, _)| *c == Code::OutOfRange));
}

/// A heavy operator batch (clone sessions with several replicas) is linear
/// and does not hold up another client: a Capabilities call and a Read
/// made while it runs answer within a bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_heavy_batch_does_not_stall_other_clients() {
    let s = start().await;
    let cfg = config();
    let ids = Ids::of(cfg.p4info.as_ref().unwrap());
    let (c, _stream) = primary_with(&s, 1, cfg).await;
    let sessions: Vec<p4::Update> = (1..=30_000u32)
        .map(|session| {
            Pick::Session {
                kind: 0,
                session,
                ports: vec![1, 2, 3, 4],
            }
            .update(&ids)
        })
        .collect();
    let mut op = lib_client(&c, "", 1);
    let heavy = tokio::spawn(async move { op.write(sessions, Atomicity::ContinueOnError).await });
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let mut other = client(&s).await;
    let bound = std::time::Duration::from_secs(3);
    tokio::time::timeout(
        bound,
        other.capabilities(p4::CapabilitiesRequest::default()),
    )
    .await
    .expect("Capabilities answered within the bound")
    .expect("capabilities");
    tokio::time::timeout(
        bound,
        read_entities(
            &mut other,
            vec![p4::Entity {
                entity: Some(E::TableEntry(p4::TableEntry {
                    table_id: ids.fwd,
                    ..Default::default()
                })),
            }],
        ),
    )
    .await
    .expect("a Read answered within the bound")
    .expect("read");
    within(heavy)
        .await
        .unwrap()
        .map_err(status)
        .expect("the heavy batch");
    // All 30,000 sessions are there.
    let mut other = client(&s).await;
    let all = read_entities(
        &mut other,
        vec![p4::Entity {
            entity: Some(E::PacketReplicationEngineEntry(
                p4::PacketReplicationEngineEntry {
                    r#type: Some(
                        p4::packet_replication_engine_entry::Type::CloneSessionEntry(
                            p4::CloneSessionEntry::default(),
                        ),
                    ),
                },
            )),
        }],
    )
    .await
    .unwrap();
    assert_eq!(all.len(), 30_000);
}

/// An all-or-nothing batch over the work limit is refused whole, before
/// anything is applied.
#[tokio::test]
async fn an_atomic_batch_over_the_work_limit_is_refused_whole() {
    let s = start().await;
    let cfg = config();
    let ids = Ids::of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, 1, cfg).await;
    let n = (batch::MAX_ATOMIC_WORK / 2 + 1) as u32;
    let updates: Vec<p4::Update> = (0..n)
        .map(|i| insert(ids.fwd, i, action(ids.drop, &[])))
        .collect();
    let e = refused(&c, updates, Atomicity::RollbackOnError).await;
    assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
    assert!(e.message().contains("split it"), "{}", e.message());
    let entries = all_entries(&mut c).await;
    assert!(entries.is_empty());
}
