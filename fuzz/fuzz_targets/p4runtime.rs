//! P4Runtime requests from arbitrary bytes against one loaded pipeline: the
//! first byte picks the request (a Write batch under one of the three
//! atomicity modes, a Read, a PacketOut), the rest is its protobuf body.
//! Whatever decodes is applied; nothing may panic, and a rejected
//! all-or-nothing batch must leave the device as it was.
#![no_main]

use janus_ctrl::device::ForwardingPipeline;
use janus_ctrl::proto::p4::v1 as p4;
use libfuzzer_sys::fuzz_target;
use prost::Message;
use std::cell::RefCell;

/// Every kind of entity v1model has: tables (exact, ternary, LPM, range
/// keys; a direct counter; an action selector), counters, a meter, a
/// register, a value set, a digest, controller headers.
const PROGRAM: &str = include_str!("p4runtime.p4");

thread_local! {
    static PIPELINE: RefCell<ForwardingPipeline> = RefCell::new(load());
}

fn load() -> ForwardingPipeline {
    let c = janus_p4::driver::compile_source("fuzz.p4", PROGRAM.to_string(), &Default::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let info = janus_ctrl::p4info::to_proto(&janus_p4::p4info::build(c.program().unwrap()));
    ForwardingPipeline::build(p4::ForwardingPipelineConfig {
        p4info: Some(info),
        p4_device_config: janus_p4::pipeline::Pipeline::from_compilation(&c).to_bytes(),
        cookie: None,
    })
    .expect("the fuzz program loads")
}

/// Everything readable, for comparing before and after.
fn everything(p: &ForwardingPipeline) -> Vec<p4::Entity> {
    use p4::entity::Entity as E;
    let wildcards = [
        E::TableEntry(p4::TableEntry::default()),
        E::CounterEntry(p4::CounterEntry::default()),
        E::RegisterEntry(p4::RegisterEntry::default()),
        E::MeterEntry(p4::MeterEntry::default()),
        E::ActionProfileMember(p4::ActionProfileMember::default()),
        E::ActionProfileGroup(p4::ActionProfileGroup::default()),
        E::ValueSetEntry(p4::ValueSetEntry::default()),
        E::DigestEntry(p4::DigestEntry::default()),
    ];
    wildcards
        .into_iter()
        .flat_map(|e| {
            p.read_entity(&p4::Entity { entity: Some(e) })
                .unwrap_or_default()
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    PIPELINE.with(|cell| {
        let mut p = cell.borrow_mut();
        match selector % 4 {
            0 => {
                if let Ok(req) = p4::WriteRequest::decode(body) {
                    for u in &req.updates {
                        let _ = p.apply(u);
                    }
                }
            }
            1 => {
                if let Ok(req) = p4::WriteRequest::decode(body) {
                    let before = everything(&p);
                    let result =
                        janus_ctrl::undo::apply_all_or_nothing(&mut p, &req.updates, |p, u| {
                            p.apply(u)
                        });
                    if result.is_err() {
                        assert_eq!(
                            before,
                            everything(&p),
                            "a rolled-back batch changed the device"
                        );
                    }
                }
            }
            2 => {
                if let Ok(req) = p4::ReadRequest::decode(body) {
                    for e in &req.entities {
                        let _ = p.read_entity(e);
                    }
                }
            }
            _ => {
                if let Ok(po) = p4::PacketOut::decode(body) {
                    if let Ok(frame) = p.packet_out_frame(&po) {
                        for (_, out) in p.switch.process(510, &frame) {
                            let _ = p.packet_in(&out);
                        }
                    }
                }
            }
        }
    });
});
