//! Write batches all or nothing (ROLLBACK_ON_ERROR, DATAPLANE_ATOMIC),
//! CONTINUE_ON_ERROR beside them, and RECONCILE_AND_COMMIT keeping the
//! forwarding state (or refusing, the old pipeline intact).

mod common;

use common::*;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use p4::entity::Entity as E;
use p4::update::Type;
use p4::write_request::Atomicity;
use tonic::Code;
use tonic::transport::Channel;

/// A table with a default action, a table over an action profile, a
/// counter and a register; `extra` adds a table, `without_fwd` drops
/// `fwd`.
fn program(extra: &str, fwd: bool) -> String {
    let (decl, apply) = if fwd {
        (
            "table fwd { key = { hdr.eth.dst: exact; } actions = { to_port; drop; } default_action = drop(); size = 64; }",
            "fwd.apply();",
        )
    } else {
        ("", "")
    };
    format!(
        r#"
#include <core.p4>
#include <v1model.p4>
header ethernet_t {{ bit<48> dst; bit<48> src; bit<16> etype; }}
struct headers_t {{ ethernet_t eth; }}
struct meta_t {{ bit<32> tmp; }}
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {{
    state start {{ pkt.extract(hdr.eth); transition accept; }}
}}
control VC(inout headers_t h, inout meta_t m) {{ apply {{ }} }}
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {{
    counter(8, CounterType.packets) hits;
    register<bit<32>>(8) seen;
    action to_port(bit<9> port) {{ sm.egress_spec = port; }}
    action drop() {{ mark_to_drop(sm); }}
    {decl}
    table plain {{
        key = {{ hdr.eth.etype: exact; }}
        actions = {{ to_port; drop; }}
        implementation = action_profile(32w8);
    }}
    {extra}
    apply {{
        hits.count((bit<32>) sm.ingress_port);
        seen.read(m.tmp, 0);
        seen.write(1, m.tmp);
        {apply}
        plain.apply();
    }}
}}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {{ apply {{ }} }}
control CC(inout headers_t h, inout meta_t m) {{ apply {{ }} }}
control D(packet_out pkt, in headers_t hdr) {{ apply {{ pkt.emit(hdr.eth); }} }}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#
    )
}

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("atomicity.p4", program("", true), None)
}

/// The id of the P4Info object (of any kind) named `name`.
fn id_of(info: &cfg::P4Info, name: &str) -> u32 {
    info.tables
        .iter()
        .map(|t| &t.preamble)
        .chain(info.actions.iter().map(|a| &a.preamble))
        .chain(info.action_profiles.iter().map(|a| &a.preamble))
        .chain(info.counters.iter().map(|c| &c.preamble))
        .chain(info.registers.iter().map(|r| &r.preamble))
        .flatten()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no {name} in the P4Info"))
        .id
}

fn upd(kind: Type, e: E) -> p4::Update {
    p4::Update {
        r#type: kind as i32,
        entity: Some(p4::Entity { entity: Some(e) }),
    }
}

struct Ids {
    fwd: u32,
    to_port: u32,
    hits: u32,
    seen: u32,
    profile: u32,
}

impl Ids {
    fn of(info: &cfg::P4Info) -> Ids {
        Ids {
            fwd: id_of(info, "I.fwd"),
            to_port: id_of(info, "I.to_port"),
            hits: id_of(info, "I.hits"),
            seen: id_of(info, "I.seen"),
            profile: id_of(info, "action_profile"),
        }
    }

    fn route(&self, dst: u8, port: u8) -> E {
        E::TableEntry(p4::TableEntry {
            table_id: self.fwd,
            r#match: vec![p4::FieldMatch {
                field_id: 1,
                field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                    p4::field_match::Exact { value: vec![dst] },
                )),
            }],
            action: action(self.to_port, &[&[port]]),
            ..Default::default()
        })
    }

    fn default_to(&self, port: u8) -> E {
        E::TableEntry(p4::TableEntry {
            table_id: self.fwd,
            action: action(self.to_port, &[&[port]]),
            is_default_action: true,
            ..Default::default()
        })
    }

    fn counter(&self, index: i64, packets: i64) -> E {
        E::CounterEntry(p4::CounterEntry {
            counter_id: self.hits,
            index: Some(p4::Index { index }),
            data: Some(p4::CounterData {
                packet_count: packets,
                byte_count: 0,
            }),
        })
    }

    fn register(&self, index: i64, value: u8) -> E {
        E::RegisterEntry(p4::RegisterEntry {
            register_id: self.seen,
            index: Some(p4::Index { index }),
            data: Some(p4::P4Data {
                data: Some(p4::p4_data::Data::Bitstring(vec![value])),
            }),
        })
    }

    fn member(&self, id: u32, port: u8) -> E {
        E::ActionProfileMember(p4::ActionProfileMember {
            action_profile_id: self.profile,
            member_id: id,
            action: Some(p4::Action {
                action_id: self.to_port,
                params: vec![p4::action::Param {
                    param_id: 1,
                    value: vec![port],
                }],
            }),
        })
    }
}

fn group(id: u32, port: u8) -> E {
    E::PacketReplicationEngineEntry(p4::PacketReplicationEngineEntry {
        r#type: Some(
            p4::packet_replication_engine_entry::Type::MulticastGroupEntry(
                p4::MulticastGroupEntry {
                    multicast_group_id: id,
                    replicas: vec![p4::Replica {
                        port_kind: Some(p4::replica::PortKind::Port(vec![port])),
                        instance: 0,
                        backup_replicas: Vec::new(),
                    }],
                    metadata: Vec::new(),
                },
            ),
        ),
    })
}

async fn write_mode(
    c: &mut P4RuntimeClient<Channel>,
    atomicity: Atomicity,
    updates: Vec<p4::Update>,
) -> Result<(), tonic::Status> {
    within(c.write(p4::WriteRequest {
        device_id: DEVICE,
        election_id: election(1),
        updates,
        atomicity: atomicity as i32,
        ..Default::default()
    }))
    .await
    .map(|_| ())
}

/// Everything the tests write, read back.
async fn everything(c: &mut P4RuntimeClient<Channel>, ids: &Ids) -> Vec<p4::Entity> {
    let e = |e: E| p4::Entity { entity: Some(e) };
    read_entities(
        c,
        vec![
            e(E::TableEntry(p4::TableEntry::default())),
            e(E::TableEntry(p4::TableEntry {
                table_id: ids.fwd,
                is_default_action: true,
                ..Default::default()
            })),
            e(E::CounterEntry(p4::CounterEntry {
                counter_id: ids.hits,
                ..Default::default()
            })),
            e(E::RegisterEntry(p4::RegisterEntry {
                register_id: ids.seen,
                ..Default::default()
            })),
            e(E::PacketReplicationEngineEntry(
                p4::PacketReplicationEngineEntry::default(),
            )),
            e(E::ActionProfileMember(p4::ActionProfileMember::default())),
        ],
    )
    .await
    .expect("read")
}

/// A server with the program committed, route 1 → port 1, member 1 and
/// multicast group 5 written.
async fn set_up() -> (Server, P4RuntimeClient<Channel>, Stream, Ids) {
    let s = start().await;
    let config = config();
    let ids = Ids::of(config.p4info.as_ref().unwrap());
    let (mut c, stream) = primary_with(&s, 1, config).await;
    write(
        &mut c,
        1,
        vec![
            upd(Type::Insert, ids.route(1, 1)),
            upd(Type::Insert, ids.member(1, 3)),
            upd(Type::Insert, group(5, 2)),
        ],
    )
    .await
    .expect("set-up writes");
    (s, c, stream, ids)
}

/// Twelve good updates of every kind, then one that fails (ALREADY_EXISTS)
/// at `bad`, then one more good one.
fn batch(ids: &Ids) -> (Vec<p4::Update>, usize) {
    let updates = vec![
        upd(Type::Insert, ids.route(2, 2)),
        upd(Type::Modify, ids.route(1, 9)),
        upd(Type::Modify, ids.default_to(7)),
        upd(Type::Modify, ids.counter(2, 5)),
        upd(Type::Modify, ids.register(3, 9)),
        upd(Type::Insert, group(6, 4)),
        upd(Type::Modify, group(5, 8)),
        upd(Type::Insert, ids.member(2, 4)),
        upd(Type::Modify, ids.member(1, 6)),
        upd(Type::Delete, group(5, 0)),
        upd(Type::Insert, ids.route(3, 3)),
        upd(Type::Delete, ids.route(3, 3)),
        upd(Type::Insert, ids.route(1, 1)),
        upd(Type::Insert, ids.route(4, 4)),
    ];
    (updates, 12)
}

#[tokio::test]
async fn all_or_nothing_batches_leave_nothing_applied() {
    for mode in [Atomicity::RollbackOnError, Atomicity::DataplaneAtomic] {
        let (_s, mut c, _stream, ids) = set_up().await;
        let before = everything(&mut c, &ids).await;
        let (updates, bad) = batch(&ids);
        let n = updates.len();
        let e = write_mode(&mut c, mode, updates)
            .await
            .expect_err("the batch fails");
        let codes = update_codes(&e);
        assert_eq!(codes.len(), n, "{mode:?}");
        for (i, (code, message)) in codes.iter().enumerate() {
            let want = if i == bad {
                Code::AlreadyExists
            } else {
                Code::Aborted
            };
            assert_eq!(*code, want, "{mode:?} update {i}: {message}");
        }
        assert!(codes[0].1.contains("rolled back"), "{}", codes[0].1);
        assert!(
            codes[n - 1].1.contains("not attempted"),
            "{}",
            codes[n - 1].1
        );
        assert_eq!(everything(&mut c, &ids).await, before, "{mode:?}");

        // The same batch without the bad update is applied whole.
        let (mut updates, bad) = batch(&ids);
        updates.remove(bad);
        write_mode(&mut c, mode, updates).await.expect("applied");
        let after = everything(&mut c, &ids).await;
        assert_ne!(after, before);
        assert!(after.contains(&p4::Entity {
            entity: Some(ids.counter(2, 5))
        }));
        assert!(after.contains(&p4::Entity {
            entity: Some(ids.register(3, 9))
        }));
    }
}

#[tokio::test]
async fn continue_on_error_keeps_the_good_updates() {
    let (_s, mut c, _stream, ids) = set_up().await;
    let (updates, bad) = batch(&ids);
    let n = updates.len();
    let e = write_mode(&mut c, Atomicity::ContinueOnError, updates)
        .await
        .expect_err("one update fails");
    let codes = update_codes(&e);
    for (i, (code, _)) in codes.iter().enumerate() {
        let want = if i == bad {
            Code::AlreadyExists
        } else {
            Code::Ok
        };
        assert_eq!(*code, want, "update {i}");
    }
    assert_eq!(codes.len(), n);
    let after = everything(&mut c, &ids).await;
    for e in [
        ids.route(2, 2),
        ids.route(1, 9),
        ids.route(4, 4),
        ids.counter(2, 5),
        ids.member(2, 4),
        group(6, 4),
    ] {
        let want = p4::Entity { entity: Some(e) };
        assert!(after.contains(&want), "missing {want:?}");
    }
}

#[tokio::test]
async fn a_rolled_back_batch_of_one_bad_update_reports_only_it() {
    let (_s, mut c, _stream, ids) = set_up().await;
    let e = write_mode(
        &mut c,
        Atomicity::RollbackOnError,
        vec![upd(Type::Delete, ids.route(9, 9))],
    )
    .await
    .expect_err("fails");
    let codes = update_codes(&e);
    assert_eq!(codes.len(), 1);
    assert_eq!(codes[0].0, Code::NotFound);
}

#[tokio::test]
async fn reconcile_and_commit_keeps_the_forwarding_state() {
    use p4::set_forwarding_pipeline_config_request::Action;
    let (_s, mut c, _stream, ids) = set_up().await;
    let (mut updates, bad) = batch(&ids);
    updates.remove(bad);
    write_mode(&mut c, Atomicity::RollbackOnError, updates)
        .await
        .expect("applied");
    let before = everything(&mut c, &ids).await;

    // A program with one more table: every entity is carried over.
    let extra = "table more { key = { hdr.eth.src: exact; } actions = { drop; } }";
    let bigger = pipeline_config("atomicity.p4", program(extra, true), Some(2));
    let ids2 = Ids::of(bigger.p4info.as_ref().unwrap());
    assert_eq!(ids2.fwd, ids.fwd, "ids follow names");
    set_pipeline(&mut c, 1, bigger, Action::ReconcileAndCommit)
        .await
        .expect("reconciled");
    assert_eq!(everything(&mut c, &ids).await, before);

    // A program without `fwd`, which has entries: refused, nothing changes.
    let smaller = pipeline_config("atomicity.p4", program("", false), Some(3));
    let e = set_pipeline(&mut c, 1, smaller, Action::ReconcileAndCommit)
        .await
        .expect_err("fwd holds entries");
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("I.fwd"), "{}", e.message());
    assert_eq!(everything(&mut c, &ids).await, before);
    let got = within(
        c.get_forwarding_pipeline_config(p4::GetForwardingPipelineConfigRequest {
            device_id: DEVICE,
            response_type: 1,
        }),
    )
    .await
    .expect("get")
    .into_inner();
    assert_eq!(got.config.unwrap().cookie.unwrap().cookie, 2);

    // Writes still go to the running pipeline.
    write(&mut c, 1, vec![upd(Type::Insert, ids.route(7, 7))])
        .await
        .expect("write after the refused reconcile");
}
