//! gNMI on the P4Runtime port: Capabilities, Get and Subscribe of
//! OpenConfig interface state and counters, with traffic injected through
//! a tiny v1model program. Every wait is bounded.

mod common;

use common::*;
use janus_ctrl::device::ForwardingPipeline;
use janus_ctrl::proto::gnmi as g;
use janus_ctrl::proto::gnmi::g_nmi_client::GNmiClient;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Streaming};

/// Frames from port 0 (uplink0) leave by port 1 (uplink1); all others are
/// dropped.
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
    apply {
        if (sm.ingress_port == 0) { sm.egress_spec = 1; } else { mark_to_drop(sm); }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

const FRAME: [u8; 60] = [0xab; 60];

/// A server whose pipeline is [`PROGRAM`].
async fn start_forwarding() -> Server {
    let config = pipeline_config("gnmi.p4", PROGRAM.into(), None);
    let pipeline = ForwardingPipeline::build(config).expect("the pipeline builds");
    start_with(|s| s.set_pipeline(pipeline)).await
}

async fn get(
    c: &mut GNmiClient<Channel>,
    paths: &[&str],
    encoding: g::Encoding,
) -> Result<Vec<g::Update>, tonic::Status> {
    let r = within(c.get(g::GetRequest {
        path: paths.iter().map(|p| gnmi_path(p)).collect(),
        encoding: encoding as i32,
        ..Default::default()
    }))
    .await?
    .into_inner();
    assert_eq!(r.notification.len(), paths.len());
    for n in &r.notification {
        assert!(
            n.timestamp > 1_600_000_000_000_000_000,
            "ns since the epoch"
        );
    }
    Ok(r.notification.into_iter().flat_map(|n| n.update).collect())
}

/// The interface name and last element of an update's path.
fn name_and_leaf(u: &g::Update) -> (String, String) {
    let path = u.path.as_ref().expect("a path");
    let name = path.elem[1].key["name"].clone();
    (name, path.elem.last().unwrap().name.clone())
}

fn uint(u: &g::Update) -> u64 {
    match u.val.as_ref().and_then(|v| v.value.clone()) {
        Some(g::typed_value::Value::UintVal(n)) => n,
        other => panic!("not a uint_val: {other:?}"),
    }
}

fn text(u: &g::Update) -> String {
    match u.val.as_ref().and_then(|v| v.value.clone()) {
        Some(g::typed_value::Value::StringVal(s)) => s,
        other => panic!("not a string_val: {other:?}"),
    }
}

/// The uint value of `leaf` of `name` among `updates`.
fn count(updates: &[g::Update], name: &str, leaf: &str) -> u64 {
    let u = updates
        .iter()
        .find(|u| name_and_leaf(u) == (name.to_string(), leaf.to_string()))
        .unwrap_or_else(|| panic!("no {name} {leaf} in {updates:?}"));
    uint(u)
}

#[tokio::test]
async fn capabilities_name_the_model_encodings_and_version() {
    let s = start().await;
    let mut c = gnmi_client(&s).await;
    let caps = within(c.capabilities(g::CapabilityRequest::default()))
        .await
        .expect("capabilities")
        .into_inner();
    assert_eq!(caps.g_nmi_version, "0.7.0");
    assert!(
        caps.supported_models
            .iter()
            .any(|m| m.name == "openconfig-interfaces" && !m.version.is_empty())
    );
    for e in [g::Encoding::Json, g::Encoding::JsonIetf, g::Encoding::Proto] {
        assert!(caps.supported_encodings.contains(&(e as i32)), "{e:?}");
    }
    assert!(
        !caps
            .supported_encodings
            .contains(&(g::Encoding::Ascii as i32))
    );
}

#[tokio::test]
async fn get_one_leaf_follows_the_pipeline() {
    // No pipeline: the ports do not forward.
    let s = start().await;
    let mut c = gnmi_client(&s).await;
    let leaf = "/interfaces/interface[name=uplink0]/state/oper-status";
    let u = get(&mut c, &[leaf], g::Encoding::JsonIetf).await.unwrap();
    assert_eq!(u.len(), 1);
    assert_eq!(
        name_and_leaf(&u[0]),
        ("uplink0".into(), "oper-status".into())
    );
    assert_eq!(text(&u[0]), "DOWN");

    let s = start_forwarding().await;
    let mut c = gnmi_client(&s).await;
    let u = get(&mut c, &[leaf], g::Encoding::Json).await.unwrap();
    assert_eq!(text(&u[0]), "UP");
    let u = get(
        &mut c,
        &["/interfaces/interface[name=cpu]/state/counters/in-pkts"],
        g::Encoding::Json,
    )
    .await
    .unwrap();
    assert_eq!(uint(&u[0]), 0);
}

#[tokio::test]
async fn get_wildcards_and_containers() {
    let s = start_forwarding().await;
    let mut c = gnmi_client(&s).await;
    let u = get(
        &mut c,
        &["/interfaces/interface[name=*]/state/name"],
        g::Encoding::JsonIetf,
    )
    .await
    .unwrap();
    let names: Vec<String> = u.iter().map(text).collect();
    let mut expected = vec!["uplink0".to_string(), "uplink1".into()];
    expected.extend((2..=9).map(|p| format!("vf{p}")));
    expected.push("cpu".into());
    assert_eq!(names, expected);

    // A container in JSON_IETF: one update at the container's path.
    let u = get(
        &mut c,
        &["/interfaces/interface[name=vf2]/state"],
        g::Encoding::JsonIetf,
    )
    .await
    .unwrap();
    assert_eq!(u.len(), 1);
    assert_eq!(name_and_leaf(&u[0]), ("vf2".into(), "state".into()));
    let Some(g::typed_value::Value::JsonIetfVal(json)) = u[0].val.clone().unwrap().value else {
        panic!("not JSON_IETF: {:?}", u[0]);
    };
    let json = String::from_utf8(json).unwrap();
    assert!(
        json.contains(r#""openconfig-interfaces:oper-status":"UP""#),
        "{json}"
    );
    assert!(
        json.contains(r#""openconfig-interfaces:counters":{"in-pkts":"0","#),
        "{json}"
    );

    // The same subtree in PROTO: its nine leaves, typed.
    let u = get(
        &mut c,
        &["/interfaces/interface[name=vf2]/state"],
        g::Encoding::Proto,
    )
    .await
    .unwrap();
    assert_eq!(u.len(), 9);
    assert_eq!(count(&u, "vf2", "in-discards"), 0);
    assert_eq!(count(&u, "vf2", "ifindex"), 2);

    // The whole tree in JSON: one interface container per interface.
    let u = get(&mut c, &["/interfaces"], g::Encoding::Json)
        .await
        .unwrap();
    assert_eq!(u.len(), 11);
    let Some(g::typed_value::Value::JsonVal(json)) = u[0].val.clone().unwrap().value else {
        panic!("not JSON: {:?}", u[0]);
    };
    assert!(
        String::from_utf8(json)
            .unwrap()
            .starts_with(r#"{"name":"uplink0","state":{"#)
    );
}

#[tokio::test]
async fn counters_change_after_injected_packets() {
    let s = start_forwarding().await;
    let mut c = gnmi_client(&s).await;
    for _ in 0..3 {
        let out = s.switch.inject(0, &FRAME).expect("a pipeline");
        assert_eq!(out.len(), 1);
    }
    for _ in 0..2 {
        assert_eq!(s.switch.inject(3, &FRAME[..50]), Some(Vec::new()));
    }
    let u = get(
        &mut c,
        &[
            "/interfaces/interface[name=uplink0]/state/counters",
            "/interfaces/interface[name=uplink1]/state/counters",
            "/interfaces/interface[name=vf3]/state/counters",
        ],
        g::Encoding::Proto,
    )
    .await
    .unwrap();
    assert_eq!(count(&u, "uplink0", "in-pkts"), 3);
    assert_eq!(count(&u, "uplink0", "in-octets"), 180);
    assert_eq!(count(&u, "uplink0", "out-pkts"), 0);
    assert_eq!(count(&u, "uplink1", "out-pkts"), 3);
    assert_eq!(count(&u, "uplink1", "out-octets"), 180);
    assert_eq!(count(&u, "vf3", "in-pkts"), 2);
    assert_eq!(count(&u, "vf3", "in-octets"), 100);
    assert_eq!(count(&u, "vf3", "in-discards"), 2);
    assert_eq!(count(&u, "uplink0", "in-discards"), 0);
}

/// An open Subscribe stream.
struct Sub {
    tx: mpsc::Sender<g::SubscribeRequest>,
    rx: Streaming<g::SubscribeResponse>,
}

async fn subscribe(c: &mut GNmiClient<Channel>, list: g::SubscriptionList) -> Sub {
    let (tx, out) = mpsc::channel(4);
    tx.send(g::SubscribeRequest {
        request: Some(g::subscribe_request::Request::Subscribe(list)),
        ..Default::default()
    })
    .await
    .unwrap();
    let rx = within(c.subscribe(ReceiverStream::new(out)))
        .await
        .expect("the stream opens")
        .into_inner();
    Sub { tx, rx }
}

fn list(
    mode: g::subscription_list::Mode,
    subs: &[(&str, g::SubscriptionMode, u64)],
) -> g::SubscriptionList {
    g::SubscriptionList {
        mode: mode as i32,
        encoding: g::Encoding::Proto as i32,
        subscription: subs
            .iter()
            .map(|(p, m, interval)| g::Subscription {
                path: Some(gnmi_path(p)),
                mode: *m as i32,
                sample_interval: *interval,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

enum Got {
    Updates(Vec<g::Update>),
    Sync,
}

impl Sub {
    async fn next(&mut self) -> Option<Got> {
        let m = within(self.rx.message()).await.expect("no error")?;
        match m.response.expect("a response") {
            g::subscribe_response::Response::Update(n) => {
                assert!(n.timestamp > 0);
                Some(Got::Updates(n.update))
            }
            g::subscribe_response::Response::SyncResponse(true) => Some(Got::Sync),
            other => panic!("unexpected {other:?}"),
        }
    }

    async fn updates(&mut self) -> Vec<g::Update> {
        match self.next().await {
            Some(Got::Updates(u)) => u,
            _ => panic!("expected updates"),
        }
    }

    async fn sync(&mut self) {
        assert!(
            matches!(self.next().await, Some(Got::Sync)),
            "expected sync_response"
        );
    }

    /// Asserts that nothing arrives for `d`.
    async fn quiet(&mut self, d: Duration) {
        if let Ok(m) = tokio::time::timeout(d, self.rx.message()).await {
            panic!("expected nothing, got {m:?}");
        }
    }
}

const IN_PKTS: &str = "/interfaces/interface[name=uplink0]/state/counters/in-pkts";

#[tokio::test]
async fn subscribe_once_sends_updates_sync_then_ends() {
    use g::subscription_list::Mode;
    let s = start_forwarding().await;
    s.switch.inject(0, &FRAME);
    let mut c = gnmi_client(&s).await;
    let mut sub = subscribe(
        &mut c,
        list(
            Mode::Once,
            &[
                (IN_PKTS, g::SubscriptionMode::TargetDefined, 0),
                (
                    "/interfaces/interface[name=*]/state/oper-status",
                    g::SubscriptionMode::TargetDefined,
                    0,
                ),
            ],
        ),
    )
    .await;
    let u = sub.updates().await;
    assert_eq!(u.len(), 12);
    assert_eq!(count(&u, "uplink0", "in-pkts"), 1);
    sub.sync().await;
    assert!(sub.next().await.is_none(), "the stream ends");
}

#[tokio::test]
async fn subscribe_poll_answers_each_poll() {
    use g::subscription_list::Mode;
    let s = start_forwarding().await;
    let mut c = gnmi_client(&s).await;
    let mut sub = subscribe(
        &mut c,
        list(
            Mode::Poll,
            &[(IN_PKTS, g::SubscriptionMode::TargetDefined, 0)],
        ),
    )
    .await;
    assert_eq!(count(&sub.updates().await, "uplink0", "in-pkts"), 0);
    sub.sync().await;
    sub.quiet(Duration::from_millis(300)).await;
    s.switch.inject(0, &FRAME);
    let poll = g::SubscribeRequest {
        request: Some(g::subscribe_request::Request::Poll(g::Poll {})),
        ..Default::default()
    };
    within(sub.tx.send(poll)).await.unwrap();
    assert_eq!(count(&sub.updates().await, "uplink0", "in-pkts"), 1);
    sub.sync().await;
}

#[tokio::test]
async fn stream_sample_sends_periodically() {
    use g::subscription_list::Mode;
    let s = start_forwarding().await;
    let mut c = gnmi_client(&s).await;
    let mut sub = subscribe(
        &mut c,
        list(
            Mode::Stream,
            &[(IN_PKTS, g::SubscriptionMode::Sample, 100_000_000)],
        ),
    )
    .await;
    assert_eq!(sub.updates().await.len(), 1);
    sub.sync().await;
    let start = tokio::time::Instant::now();
    for _ in 0..3 {
        // Unchanged values are sent too (no suppress_redundant).
        assert_eq!(count(&sub.updates().await, "uplink0", "in-pkts"), 0);
    }
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(250),
        "three samples in {took:?}"
    );
    assert!(took < Duration::from_secs(5), "three samples in {took:?}");
}

#[tokio::test]
async fn stream_on_change_sends_changes_only() {
    use g::subscription_list::Mode;
    let s = start_forwarding().await;
    let mut c = gnmi_client(&s).await;
    let mut sub = subscribe(
        &mut c,
        list(
            Mode::Stream,
            &[(
                "/interfaces/interface[name=uplink0]/state/counters",
                g::SubscriptionMode::OnChange,
                0,
            )],
        ),
    )
    .await;
    assert_eq!(sub.updates().await.len(), 5);
    sub.sync().await;
    sub.quiet(Duration::from_millis(500)).await;
    s.switch.inject(0, &FRAME);
    let u = sub.updates().await;
    // in-pkts and in-octets changed; nothing else did.
    assert_eq!(u.len(), 2, "{u:?}");
    assert_eq!(count(&u, "uplink0", "in-pkts"), 1);
    assert_eq!(count(&u, "uplink0", "in-octets"), 60);
    sub.quiet(Duration::from_millis(500)).await;
}

#[tokio::test]
async fn bad_requests_get_clear_errors() {
    use g::subscription_list::Mode;
    let s = start_forwarding().await;
    let mut c = gnmi_client(&s).await;
    for path in [
        "/system",
        "/interfaces/interface[name=vf100]",
        "/interfaces/interface[name=uplink0]/state/mtu",
        "/interfaces/interface[name=uplink0]/config",
    ] {
        fails_with(
            get(&mut c, &[path], g::Encoding::Json).await,
            Code::NotFound,
        );
    }
    fails_with(
        get(&mut c, &["/interfaces[name=x]"], g::Encoding::Json).await,
        Code::InvalidArgument,
    );
    fails_with(
        get(&mut c, &[IN_PKTS], g::Encoding::Ascii).await,
        Code::Unimplemented,
    );
    let r = within(c.get(g::GetRequest {
        path: vec![gnmi_path(IN_PKTS)],
        encoding: 42,
        ..Default::default()
    }))
    .await;
    fails_with(r, Code::InvalidArgument);
    fails_with(
        within(c.set(g::SetRequest::default())).await,
        Code::Unimplemented,
    );

    let mut sub = subscribe(
        &mut c,
        list(
            Mode::Stream,
            &[("/nowhere", g::SubscriptionMode::Sample, 0)],
        ),
    )
    .await;
    let e = within(sub.rx.message())
        .await
        .expect_err("a bad path ends the stream");
    assert_eq!(e.code(), Code::NotFound, "{e:?}");

    let (tx, out) = mpsc::channel(1);
    tx.send(g::SubscribeRequest {
        request: Some(g::subscribe_request::Request::Poll(g::Poll {})),
        ..Default::default()
    })
    .await
    .unwrap();
    let mut rx = within(c.subscribe(ReceiverStream::new(out)))
        .await
        .unwrap()
        .into_inner();
    let e = within(rx.message())
        .await
        .expect_err("a Poll first is refused");
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
}
