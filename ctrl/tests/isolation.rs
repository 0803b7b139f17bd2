//! Roles and tenant isolation: arbitration per role, Stratum role configs
//! (plaintext, every client the operator), then mTLS identities: what an
//! operator and a tenant certificate may do, and connections without a
//! good certificate.

mod common;

use common::*;
use janus_ctrl::certs::{Bundle, CertsConfig};
use janus_ctrl::client::{self, Client, ClientConfig, ClientIdentity, ClientTls};
use janus_ctrl::listen::{ServeConfig, serve_with};
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::proto::stratum::P4RoleConfig;
use janus_ctrl::server::P4RuntimeService;
use p4::entity::Entity as E;
use p4::update::Type::{Delete, Insert};
use prost::Message;
use tokio::sync::oneshot;
use tonic::Code;
use tonic::transport::Channel;

/// Frames from port 1 belong to tenant 7, from port 2 to tenant 8 (the
/// `tenants` table); `acl` is keyed by tenant and marked as tenant-owned;
/// `tenant_packets` counts per tenant and is marked as tenant-indexed.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>

@controller_header("packet_in")
header packet_in_t { bit<9> ingress_port; bit<7> reason; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { packet_in_t packet_in; ethernet_t eth; }
struct meta_t { bit<16> tenant; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    @janus_tenant_index counter(16, CounterType.packets) tenant_packets;
    counter(16, CounterType.packets) port_packets;
    action set_tenant(bit<16> tenant) { m.tenant = tenant; }
    table tenants {
        key = { sm.ingress_port : exact; }
        actions = { set_tenant; NoAction; }
        default_action = NoAction();
    }
    action allow(bit<9> port) { sm.egress_spec = port; }
    action deny() { mark_to_drop(sm); }
    action punt(bit<7> reason) {
        sm.egress_spec = 510;
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = sm.ingress_port;
        hdr.packet_in.reason = reason;
    }
    @janus_tenant_key("m.tenant")
    table acl {
        key = { m.tenant : exact; hdr.eth.dst : ternary; }
        actions = { allow; deny; punt; }
        default_action = deny();
    }
    apply {
        port_packets.count((bit<32>) sm.ingress_port);
        tenants.apply();
        tenant_packets.count((bit<32>) m.tenant);
        acl.apply();
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.eth); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("isolation.p4", PROGRAM.to_string(), None)
}

fn id_of(info: &cfg::P4Info, name: &str) -> u32 {
    info.tables
        .iter()
        .map(|t| &t.preamble)
        .chain(info.actions.iter().map(|a| &a.preamble))
        .chain(info.counters.iter().map(|c| &c.preamble))
        .chain(info.controller_packet_metadata.iter().map(|h| &h.preamble))
        .flatten()
        .find(|p| p.name == name || p.alias == name)
        .unwrap_or_else(|| panic!("no {name} in the P4Info"))
        .id
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

/// An `acl` entry of `tenant` for destination MAC ending in `dst`.
fn acl_entry(
    info: &cfg::P4Info,
    tenant: u8,
    dst: u8,
    action_name: &str,
    arg: u8,
) -> p4::TableEntry {
    p4::TableEntry {
        table_id: id_of(info, "I.acl"),
        r#match: vec![
            exact(1, &[tenant]),
            p4::FieldMatch {
                field_id: 2,
                field_match_type: Some(p4::field_match::FieldMatchType::Ternary(
                    p4::field_match::Ternary {
                        value: vec![dst],
                        mask: vec![0xff],
                    },
                )),
            },
        ],
        action: action(id_of(info, action_name), &[&[arg]]),
        priority: 10,
        ..Default::default()
    }
}

fn tenant_port_entry(info: &cfg::P4Info, port: u8, tenant: u8) -> p4::TableEntry {
    p4::TableEntry {
        table_id: id_of(info, "I.tenants"),
        r#match: vec![exact(1, &[port])],
        action: action(id_of(info, "I.set_tenant"), &[&[tenant]]),
        ..Default::default()
    }
}

fn role_config(c: P4RoleConfig) -> prost_types::Any {
    prost_types::Any {
        type_url: "type.googleapis.com/stratum.P4RoleConfig".into(),
        value: c.encode_to_vec(),
    }
}

async fn arbitrate_role(
    s: &mut Stream,
    role: &str,
    config: Option<prost_types::Any>,
    id: u64,
) -> Result<(Code, u64), tonic::Status> {
    let msg = p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::Arbitration(
            p4::MasterArbitrationUpdate {
                device_id: DEVICE,
                role: Some(p4::Role {
                    name: role.into(),
                    config,
                    ..Default::default()
                }),
                election_id: election(id),
                status: None,
            },
        )),
    };
    within(s.tx.send(msg)).await.expect("send");
    s.answer().await
}

fn all_of_table(table_id: u32) -> p4::Entity {
    entity(E::TableEntry(p4::TableEntry {
        table_id,
        ..Default::default()
    }))
}

fn all_of_counter(counter_id: u32) -> p4::Entity {
    entity(E::CounterEntry(p4::CounterEntry {
        counter_id,
        ..Default::default()
    }))
}

fn frame(dst: u8) -> Vec<u8> {
    let mut f = vec![0, 0, 0, 0, 0, dst, 2, 0, 0, 0, 0, 1, 0x08, 0x00];
    f.extend_from_slice(b"isolation");
    f
}

async fn next_packet_in(s: &mut Stream) -> p4::PacketIn {
    loop {
        let msg = within(s.rx.message())
            .await
            .expect("stream open")
            .expect("a message");
        match msg.update {
            Some(p4::stream_message_response::Update::Packet(p)) => return p,
            Some(p4::stream_message_response::Update::Arbitration(_)) => continue,
            other => panic!("not a PacketIn: {other:?}"),
        }
    }
}

/// Nothing but arbitration arrives on `s` within a short while.
async fn no_packet_in(s: &mut Stream) {
    let quiet = tokio::time::timeout(std::time::Duration::from_millis(300), async {
        loop {
            match s.rx.message().await {
                Ok(Some(m))
                    if matches!(
                        m.update,
                        Some(p4::stream_message_response::Update::Arbitration(_))
                    ) => {}
                other => return other,
            }
        }
    })
    .await;
    assert!(quiet.is_err(), "unexpected message: {quiet:?}");
}

#[tokio::test]
async fn each_role_has_its_own_primary() {
    let s = start().await;
    let (_c, _primary) = primary_with(&s, 10, config()).await;
    // The same election id in another role is no conflict.
    let mut c2 = client(&s).await;
    let mut a = Stream::open(&mut c2).await;
    assert_eq!(
        arbitrate_role(&mut a, "app", None, 10).await.unwrap(),
        (Code::Ok, 10)
    );
    // Re-arbitrating raises the stream's election id.
    assert_eq!(
        arbitrate_role(&mut a, "app", None, 20).await.unwrap(),
        (Code::Ok, 20)
    );
    let mut c3 = client(&s).await;
    let mut b = Stream::open(&mut c3).await;
    assert_eq!(
        arbitrate_role(&mut b, "app", None, 5).await.unwrap(),
        (Code::AlreadyExists, 20)
    );
    // A stream stays in the role it first arbitrated for.
    let msg = p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::Arbitration(
            p4::MasterArbitrationUpdate {
                device_id: DEVICE,
                role: None,
                election_id: election(99),
                status: None,
            },
        )),
    };
    within(b.tx.send(msg)).await.unwrap();
    fails_with(b.answer().await, Code::FailedPrecondition);
    // The primary of "app" writes as "app" with its election id, not as
    // the default role.
    let info = config().p4info.unwrap();
    let entry = tenant_port_entry(&info, 1, 7);
    fails_with(
        write_as(&mut c2, "", 20, vec![update(Insert, entry.clone())]).await,
        Code::PermissionDenied,
    );
    write_as(&mut c2, "app", 20, vec![update(Insert, entry)])
        .await
        .expect("a role without a config has full access");
}

#[tokio::test]
async fn role_configs_limit_writes_reads_pipelines_and_packet_ins() {
    let s = start().await;
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let (_op, mut default_primary) = primary_with(&s, 10, cfg.clone()).await;
    let acl = id_of(&info, "I.acl");
    let tenants = id_of(&info, "I.tenants");

    // "acl-app" may write acl (shared) and gets the PacketIns whose reason
    // (packet_in metadata 2) is 3.
    let mut c = client(&s).await;
    let mut app = Stream::open(&mut c).await;
    let app_config = P4RoleConfig {
        shared_p4_ids: vec![acl],
        receives_packet_ins: true,
        packet_in_filter: Some(janus_ctrl::proto::stratum::p4_role_config::PacketFilter {
            metadata_id: 2,
            value: vec![3],
        }),
        ..Default::default()
    };
    let (code, _) = arbitrate_role(&mut app, "acl-app", Some(role_config(app_config)), 1)
        .await
        .unwrap();
    assert_eq!(code, Code::Ok);

    write_as(
        &mut c,
        "acl-app",
        1,
        vec![update(Insert, acl_entry(&info, 7, 1, "I.punt", 3))],
    )
    .await
    .expect("acl is the role's");
    let e = write_as(
        &mut c,
        "acl-app",
        1,
        vec![
            update(Insert, acl_entry(&info, 7, 2, "I.punt", 4)),
            update(Insert, tenant_port_entry(&info, 1, 7)),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, [Code::Ok, Code::PermissionDenied]);
    // Its reads see only acl.
    let seen = read_as(&mut c, "acl-app", vec![all_of_table(0)])
        .await
        .unwrap();
    assert_eq!(seen.len(), 2);
    assert!(
        seen.iter()
            .all(|e| matches!(&e.entity, Some(E::TableEntry(t)) if t.table_id == acl))
    );
    // It may not push a pipeline.
    let push = within(
        c.set_forwarding_pipeline_config(p4::SetForwardingPipelineConfigRequest {
            device_id: DEVICE,
            role: "acl-app".into(),
            election_id: election(1),
            action: p4::set_forwarding_pipeline_config_request::Action::Verify as i32,
            config: Some(cfg.clone()),
            ..Default::default()
        }),
    )
    .await;
    fails_with(push, Code::PermissionDenied);

    // A role holding `tenants` exclusively keeps "acl-app"-like roles out.
    let mut cx = client(&s).await;
    let mut x = Stream::open(&mut cx).await;
    let x_config = P4RoleConfig {
        exclusive_p4_ids: vec![tenants],
        ..Default::default()
    };
    arbitrate_role(&mut x, "owner", Some(role_config(x_config)), 1)
        .await
        .unwrap();
    write_as(
        &mut cx,
        "owner",
        1,
        vec![update(Insert, tenant_port_entry(&info, 1, 7))],
    )
    .await
    .expect("the owner writes its table");
    let mut cy = client(&s).await;
    let mut y = Stream::open(&mut cy).await;
    let y_config = P4RoleConfig {
        shared_p4_ids: vec![tenants],
        ..Default::default()
    };
    arbitrate_role(&mut y, "intruder", Some(role_config(y_config)), 1)
        .await
        .unwrap();
    let e = write_as(
        &mut cy,
        "intruder",
        1,
        vec![update(Delete, tenant_port_entry(&info, 1, 7))],
    )
    .await
    .unwrap_err();
    assert_eq!(update_codes(&e)[0].0, Code::PermissionDenied);

    // A punted frame with reason 3 reaches both the default role's primary
    // and "acl-app"; with reason 4 only the default role's.
    s.switch.inject(1, &frame(1)).expect("a pipeline");
    assert_eq!(next_packet_in(&mut default_primary).await.payload, frame(1));
    assert_eq!(next_packet_in(&mut app).await.payload, frame(1));
    s.switch.inject(1, &frame(2)).expect("a pipeline");
    assert_eq!(next_packet_in(&mut default_primary).await.payload, frame(2));
    no_packet_in(&mut app).await;

    // Bad role configs end the stream.
    let mut cz = client(&s).await;
    let mut z = Stream::open(&mut cz).await;
    let bogus = prost_types::Any {
        type_url: "type.googleapis.com/something.Else".into(),
        value: vec![1, 2, 3],
    };
    fails_with(
        arbitrate_role(&mut z, "z", Some(bogus), 1).await,
        Code::InvalidArgument,
    );
}

// ---- mTLS ---------------------------------------------------------------

struct TlsServer {
    addr: std::net::SocketAddr,
    switch: janus_ctrl::server::SwitchHandle,
    pki: Bundle,
    _stop: oneshot::Sender<()>,
}

fn pki(clients: &[&str]) -> Bundle {
    janus_ctrl::certs::generate(&CertsConfig {
        server_names: vec!["localhost".into(), "127.0.0.1".into()],
        clients: clients.iter().map(|c| c.to_string()).collect(),
    })
    .expect("certificates")
}

/// A server with mTLS and the isolation program committed.
async fn start_tls() -> TlsServer {
    let pki = pki(&["operator", "tenant:7", "tenant:8", "admin", "tenant:07"]);
    let listener = within(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let service = P4RuntimeService::new(DEVICE);
    service
        .set_pipeline(janus_ctrl::device::ForwardingPipeline::build(config()).expect("pipeline"));
    let switch = service.switch_handle();
    let tls = janus_ctrl::auth::TlsConfig {
        cert_pem: pki.server.cert_pem.clone().into_bytes(),
        key_pem: pki.server.key_pem.clone().into_bytes(),
        client_ca_pem: pki.ca_pem.clone().into_bytes(),
    };
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(async move {
        serve_with(service, listener, ServeConfig { tls: Some(tls) }, async {
            let _ = stopped.await;
        })
        .await
        .expect("server runs");
    });
    TlsServer {
        addr,
        switch,
        pki,
        _stop: stop,
    }
}

/// A client presenting `identity`'s certificate from `pki` (none: no
/// client certificate), trusting `ca`.
async fn tls_client(
    addr: std::net::SocketAddr,
    ca: &str,
    identity: Option<(&str, &str)>,
) -> Result<P4RuntimeClient<Channel>, client::Error> {
    let tls = ClientTls {
        ca: ca.into(),
        identity: identity.map(|(cert, key)| ClientIdentity {
            cert: cert.into(),
            key: key.into(),
        }),
        domain: Some("localhost".into()),
    };
    let mut c = Client::connect(ClientConfig {
        tls: Some(tls),
        limits: LIMITS,
        ..ClientConfig::new(addr.to_string())
    })
    .await?;
    Ok(c.grpc().clone())
}

impl TlsServer {
    async fn client_as(&self, cn: &str) -> P4RuntimeClient<Channel> {
        let (_, ck) = self
            .pki
            .clients
            .iter()
            .find(|(name, _)| name == cn)
            .expect("a certificate");
        tls_client(
            self.addr,
            &self.pki.ca_pem,
            Some((&ck.cert_pem, &ck.key_pem)),
        )
        .await
        .expect("connect")
    }
}

/// An RPC on a client whose connection the server should refuse.
async fn refused(c: Result<P4RuntimeClient<Channel>, client::Error>) {
    let Ok(mut c) = c else { return };
    let r = within(c.capabilities(p4::CapabilitiesRequest::default())).await;
    assert!(r.is_err(), "the server answered: {r:?}");
}

#[tokio::test]
async fn operator_and_tenants_over_mtls() {
    let s = start_tls().await;
    let info = config().p4info.unwrap();
    let acl = id_of(&info, "I.acl");

    // The operator: primary of the default role, writes anything.
    let mut op = s.client_as("operator").await;
    let mut op_stream = Stream::open(&mut op).await;
    op_stream.arbitrate(100).await;
    assert_eq!(op_stream.answer().await.unwrap().0, Code::Ok);
    write(
        &mut op,
        100,
        vec![
            update(Insert, tenant_port_entry(&info, 1, 7)),
            update(Insert, tenant_port_entry(&info, 2, 8)),
            update(Insert, acl_entry(&info, 8, 9, "I.allow", 3)),
        ],
    )
    .await
    .expect("operator writes");

    // Tenant 7: its own role only.
    let mut t7 = s.client_as("tenant:7").await;
    let mut t7_stream = Stream::open(&mut t7).await;
    fails_with(
        arbitrate_role(&mut t7_stream, "", None, 1).await,
        Code::PermissionDenied,
    );
    let mut t7_stream = Stream::open(&mut t7).await;
    fails_with(
        arbitrate_role(&mut t7_stream, "tenant:8", None, 1).await,
        Code::PermissionDenied,
    );
    let mut t7_stream = Stream::open(&mut t7).await;
    let forged = role_config(P4RoleConfig {
        shared_p4_ids: vec![id_of(&info, "I.tenants")],
        can_push_pipeline: true,
        ..Default::default()
    });
    fails_with(
        arbitrate_role(&mut t7_stream, "tenant:7", Some(forged), 1).await,
        Code::PermissionDenied,
    );
    let mut t7_stream = Stream::open(&mut t7).await;
    assert_eq!(
        arbitrate_role(&mut t7_stream, "tenant:7", None, 1)
            .await
            .unwrap()
            .0,
        Code::Ok
    );
    // Its ACL entries: yes. Tenant 8's entry, the tenants table, the
    // default action: no, each refused on its own.
    write_as(
        &mut t7,
        "tenant:7",
        1,
        vec![update(Insert, acl_entry(&info, 7, 1, "I.allow", 2))],
    )
    .await
    .expect("tenant 7 writes its own entry");
    let default_entry = p4::TableEntry {
        table_id: acl,
        is_default_action: true,
        action: action(id_of(&info, "I.allow"), &[&[1]]),
        ..Default::default()
    };
    let e = write_as(
        &mut t7,
        "tenant:7",
        1,
        vec![
            update(Insert, acl_entry(&info, 8, 1, "I.allow", 2)),
            update(Delete, acl_entry(&info, 8, 9, "I.allow", 3)),
            update(Insert, tenant_port_entry(&info, 3, 7)),
            update(p4::update::Type::Modify, default_entry),
            update(Insert, acl_entry(&info, 7, 2, "I.allow", 4)),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        [
            Code::PermissionDenied,
            Code::PermissionDenied,
            Code::PermissionDenied,
            Code::PermissionDenied,
            Code::Ok
        ]
    );
    // Writing as the default role, or with the operator's election id.
    fails_with(
        write_as(
            &mut t7,
            "",
            100,
            vec![update(Insert, acl_entry(&info, 7, 3, "I.allow", 2))],
        )
        .await,
        Code::PermissionDenied,
    );
    // Never the pipeline, whatever the role.
    for role in ["", "tenant:7"] {
        let push = within(t7.set_forwarding_pipeline_config(
            p4::SetForwardingPipelineConfigRequest {
                device_id: DEVICE,
                role: role.into(),
                election_id: election(1),
                action: p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit as i32,
                config: Some(config()),
                ..Default::default()
            },
        ))
        .await;
        fails_with(push, Code::PermissionDenied);
    }

    // The P4Info, yes; the operator's program, no.
    use p4::get_forwarding_pipeline_config_request::ResponseType;
    for (kind, ok) in [
        (ResponseType::P4infoAndCookie, true),
        (ResponseType::CookieOnly, true),
        (ResponseType::All, false),
        (ResponseType::DeviceConfigAndCookie, false),
    ] {
        let r = within(
            t7.get_forwarding_pipeline_config(p4::GetForwardingPipelineConfigRequest {
                device_id: DEVICE,
                response_type: kind as i32,
            }),
        )
        .await;
        if ok {
            r.expect("tenants read the P4Info");
        } else {
            fails_with(r, Code::PermissionDenied);
        }
    }

    // Reads: tenant 7 sees its own acl entries and its own counter cell.
    let seen = read_as(&mut t7, "tenant:7", vec![all_of_table(0)])
        .await
        .unwrap();
    assert_eq!(seen.len(), 2, "{seen:?}");
    for e in &seen {
        let Some(E::TableEntry(t)) = &e.entity else {
            panic!()
        };
        assert_eq!(t.table_id, acl);
        assert_eq!(t.r#match[0], exact(1, &[7]));
    }
    s.switch.inject(1, &frame(1)).unwrap();
    s.switch.inject(2, &frame(9)).unwrap();
    let tenant_packets = id_of(&info, "I.tenant_packets");
    let counters = read_as(&mut t7, "tenant:7", vec![all_of_counter(tenant_packets)])
        .await
        .unwrap();
    assert_eq!(counters.len(), 1, "{counters:?}");
    let Some(E::CounterEntry(c)) = &counters[0].entity else {
        panic!()
    };
    assert_eq!(c.index.as_ref().unwrap().index, 7);
    assert_eq!(c.data.as_ref().unwrap().packet_count, 1);
    let other = read_as(
        &mut t7,
        "tenant:7",
        vec![all_of_counter(id_of(&info, "I.port_packets"))],
    )
    .await
    .unwrap();
    assert!(other.is_empty(), "{other:?}");
    fails_with(
        read_as(&mut t7, "", vec![all_of_table(0)]).await,
        Code::PermissionDenied,
    );

    // The operator still sees everything.
    let all = read_as(&mut op, "", vec![all_of_table(0)]).await.unwrap();
    assert_eq!(all.len(), 5);

    // A certificate naming no Janus identity is refused.
    let mut admin = s.client_as("admin").await;
    fails_with(
        read_as(&mut admin, "", vec![all_of_table(0)]).await,
        Code::PermissionDenied,
    );
    // A second spelling of tenant 7 is no identity at all: it may not use
    // tenant 7's role (nor read as it, nor join its arbitration).
    let mut t07 = s.client_as("tenant:07").await;
    for role in ["tenant:7", "tenant:07"] {
        fails_with(
            read_as(&mut t07, role, vec![all_of_table(0)]).await,
            Code::PermissionDenied,
        );
    }
    let (_tx, out) = tokio::sync::mpsc::channel::<p4::StreamMessageRequest>(1);
    fails_with(
        within(t07.stream_channel(tokio_stream::wrappers::ReceiverStream::new(out))).await,
        Code::PermissionDenied,
    );
}

#[tokio::test]
async fn connections_without_a_good_certificate_fail() {
    let s = start_tls().await;
    // No client certificate.
    refused(tls_client(s.addr, &s.pki.ca_pem, None).await).await;
    // A client certificate from another CA (that also names "operator").
    let stranger = pki(&["operator"]);
    let (_, ck) = &stranger.clients[0];
    refused(tls_client(s.addr, &s.pki.ca_pem, Some((&ck.cert_pem, &ck.key_pem))).await).await;
    // Plaintext.
    let plain = within(P4RuntimeClient::connect(format!("http://{}", s.addr))).await;
    if let Ok(mut c) = plain {
        let r = within(c.capabilities(p4::CapabilitiesRequest::default())).await;
        assert!(r.is_err(), "plaintext answered: {r:?}");
    }
    // The operator's certificate works.
    let mut op = s.client_as("operator").await;
    within(op.capabilities(p4::CapabilitiesRequest::default()))
        .await
        .expect("capabilities over mTLS");
}

/// A gNMI client presenting `cn`'s certificate.
async fn gnmi_as(
    s: &TlsServer,
    cn: &str,
) -> janus_ctrl::proto::gnmi::g_nmi_client::GNmiClient<Channel> {
    use tonic::transport::{Certificate, ClientTlsConfig, Identity};
    let (_, ck) = s.pki.clients.iter().find(|(name, _)| name == cn).unwrap();
    let tls = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(&s.pki.ca_pem))
        .identity(Identity::from_pem(&ck.cert_pem, &ck.key_pem))
        .domain_name("localhost");
    let channel = within(
        Channel::from_shared(format!("https://{}", s.addr))
            .unwrap()
            .tls_config(tls)
            .unwrap()
            .connect(),
    )
    .await
    .expect("connect");
    janus_ctrl::proto::gnmi::g_nmi_client::GNmiClient::new(channel)
}

#[tokio::test]
async fn port_state_over_gnmi_is_the_operators() {
    use janus_ctrl::proto::gnmi as g;
    let s = start_tls().await;
    let get = g::GetRequest {
        path: vec![gnmi_path("/interfaces/interface[name=*]/state/counters")],
        encoding: g::Encoding::JsonIetf as i32,
        ..Default::default()
    };
    let mut op = gnmi_as(&s, "operator").await;
    within(op.get(get.clone()))
        .await
        .expect("the operator reads the ports");
    for cn in ["tenant:7", "admin"] {
        let mut other = gnmi_as(&s, cn).await;
        fails_with(within(other.get(get.clone())).await, Code::PermissionDenied);
        let sub = g::SubscribeRequest {
            request: Some(g::subscribe_request::Request::Subscribe(
                g::SubscriptionList {
                    subscription: vec![g::Subscription {
                        path: Some(gnmi_path("/interfaces")),
                        ..Default::default()
                    }],
                    mode: g::subscription_list::Mode::Once as i32,
                    ..Default::default()
                },
            )),
            ..Default::default()
        };
        let r = within(other.subscribe(tokio_stream::iter(vec![sub]))).await;
        fails_with(r, Code::PermissionDenied);
    }
}
