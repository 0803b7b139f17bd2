//! The data plane's thread: frames in from the ports, through the
//! control plane's switch, out of the ports; PacketOuts in between;
//! captures, dumps and the event log on the way.

use crate::{Captures, DROP_PORT, Events, POLL, Ports};
use janus_ctrl::server::PacketSession;
use janus_host::nanomsg::packet::Notice;
use janus_host::ports::{FrameQueue, PortEvent};

/// The data plane's thread: ports in, the pipeline, ports out.
pub struct DataPlane {
    pub ports: Ports,
    pub switch: janus_ctrl::server::SwitchHandle,
    pub packet_outs: tokio::sync::mpsc::Receiver<(u32, Vec<u8>)>,
    pub captures: Option<Captures>,
    /// Bytes of each packet to log (`--dump-packet-data`).
    pub dump: usize,
    /// The event log (`--nanolog`), if any.
    pub events: Option<Events>,
    /// Told what the ports report (an interface gone, nanomsg peers).
    pub report: Box<dyn FnMut(Report) + Send>,
}

/// What the ports report as the data plane runs.
pub enum Report {
    /// A Linux interface went down or away.
    Port(PortEvent),
    /// The nanomsg socket's connections and port messages.
    Nanomsg(Notice),
}

impl DataPlane {
    /// What the start-up line says of the ports and the event log.
    pub fn describe(&self) -> String {
        let mut listed = self.ports.describe();
        if let Some(e) = &self.events {
            listed.push_str(&format!(
                ", event log (nanomsg PUB) on {}",
                e.log.socket().endpoint()
            ));
        }
        listed
    }

    /// Runs the loop: ports in, the pipeline, PacketOuts and ports out;
    /// returns only when the ports cannot be polled any more.
    pub fn run(mut self) {
        let mut out = FrameQueue::default();
        loop {
            if let Some(e) = self.events.as_mut() {
                e.look_at_pipeline(&self.switch);
            }
            let mut input = Input {
                captures: &mut self.captures,
                dump: self.dump,
                events: self.events.as_mut(),
            };
            let switch = &self.switch;
            let mut n = 0;
            match &mut self.ports {
                Ports::Rings(rings) => {
                    match rings.wait(POLL) {
                        Ok(events) => events
                            .into_iter()
                            .for_each(|e| (self.report)(Report::Port(e))),
                        Err(e) => {
                            tracing::error!("the data plane cannot poll its ports: {e}");
                            return;
                        }
                    }
                    // One lock for the round's batch.
                    let mut session = switch.session();
                    rings.drain(|port, frame| {
                        n += usize::from(input.run(&mut session, port, frame, &mut out));
                    });
                }
                // A lock per packet: the wait for input holds none.
                Ports::Socket(socket) => {
                    for notice in socket.poll(POLL, |port, frame| {
                        n += usize::from(input.run(&mut switch.session(), port, frame, &mut out));
                    }) {
                        (self.report)(Report::Nanomsg(notice));
                    }
                }
                Ports::Files(files) => files.poll(POLL, |port, frame| {
                    n += usize::from(input.run(&mut switch.session(), port, frame, &mut out));
                }),
            }
            let received = n;
            while let Ok((port, frame)) = self.packet_outs.try_recv() {
                out.push(port, &frame);
                if let Some(e) = self.events.as_mut() {
                    let id = e.next_id();
                    e.out_ids.push((id, 0));
                }
            }
            let wrote = received > 0 || !out.is_empty();
            for (i, (port, frame)) in out.iter().enumerate() {
                self.send(port, frame);
                if let Some(e) = self.events.as_ref()
                    && let Some(&(id, copy)) = e.out_ids.get(i)
                {
                    e.log.packet_out(id, copy, port);
                }
            }
            out.clear();
            if let Some(e) = self.events.as_mut() {
                e.out_ids.clear();
            }
            if let Ports::Rings(rings) = &mut self.ports {
                for e in rings.flush() {
                    (self.report)(Report::Port(e));
                }
            }
            if wrote && let Some(c) = self.captures.as_mut() {
                c.flush();
            }
        }
    }

    /// Queues `frame` on `port` (captured and dumped first).
    fn send(&mut self, port: u32, frame: &[u8]) {
        if let Some(c) = self.captures.as_mut() {
            c.write(port, false, frame);
        }
        if self.dump > 0 {
            tracing::info!(port, data = %hex(frame, self.dump), "packet out");
        }
        match &mut self.ports {
            Ports::Rings(rings) => {
                if !rings.send(port, frame) {
                    tracing::debug!(port, "no interface takes the packet: dropped");
                }
            }
            Ports::Files(files) => {
                if !files.send(port, frame) {
                    tracing::debug!(port, "no file takes the packet: dropped");
                }
            }
            Ports::Socket(socket) => match socket.send(port, frame) {
                Ok(()) => {}
                Err(janus_host::nanomsg::NnError::NoPeer) => {
                    tracing::debug!(port, "no nanomsg peer takes the packet: dropped");
                }
                Err(e) => {
                    tracing::warn!(port, "nanomsg: the packet is dropped: {e}");
                }
            },
        }
    }
}

/// What happens to each packet received before the pipeline.
struct Input<'a> {
    captures: &'a mut Option<Captures>,
    dump: usize,
    /// The event log: PACKET_IN here, the ids of what the packet sends.
    events: Option<&'a mut Events>,
}

impl Input<'_> {
    /// Captures, dumps and runs one received packet, queueing what the
    /// pipeline sends on `out`; `false` when it is dropped unrun.
    fn run(
        &mut self,
        session: &mut PacketSession<'_>,
        port: u32,
        frame: &[u8],
        out: &mut FrameQueue,
    ) -> bool {
        if port > DROP_PORT {
            tracing::warn!(
                port,
                "a packet on a port beyond 511 (not a v1model port): dropped"
            );
            return false;
        }
        if let Some(c) = self.captures.as_mut() {
            c.write(port, true, frame);
        }
        if self.dump > 0 {
            tracing::info!(port, data = %hex(frame, self.dump), "packet in");
        }
        match self.events.as_deref_mut() {
            None => {
                session.run(port, frame, &mut |p, f| out.push(p, f));
            }
            Some(events) => {
                let id = events.next_id();
                events.log.packet_in(id, port);
                let mut copy = 0;
                let ids = &mut events.out_ids;
                session.run(port, frame, &mut |p, f| {
                    out.push(p, f);
                    ids.push((id, copy));
                    copy += 1;
                });
            }
        }
        true
    }
}

/// The first `n` bytes of `frame` in hex.
pub(crate) fn hex(frame: &[u8], n: usize) -> String {
    frame.iter().take(n).map(|b| format!("{b:02x}")).collect()
}
