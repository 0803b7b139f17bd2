//! The Subscribe RPC: ONCE, POLL and STREAM subscriptions.
//!
//! The first request must be a SubscriptionList; its paths are resolved
//! at once (a bad one ends the stream with its status). Every mode first
//! sends the subscribed leaves (unless `updates_only`) in one
//! Notification, then a `sync_response`. ONCE then ends the stream; POLL
//! answers each Poll the same way; STREAM goes on until the client leaves:
//! SAMPLE sends its leaves every `sample_interval` (at least the configured
//! minimum; with `suppress_redundant` only those that changed), ON_CHANGE
//! compares its leaves at a fixed tick and sends those that changed, and
//! TARGET_DEFINED is SAMPLE for counters and ON_CHANGE for the other
//! leaves. Values always go as typed scalars (`uint_val`, `string_val`).

use super::model::Leaf;
use super::{GnmiConfig, Source, check_models, encoding, leaf_update, notification, path};
use crate::proto::gnmi as g;
use g::subscribe_request::Request as Req;
use g::subscription_list::Mode;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tonic::{Status, Streaming};

type Tx = mpsc::Sender<Result<g::SubscribeResponse, Status>>;

/// When a group of leaves is sent.
#[derive(Clone, Copy)]
enum Trigger {
    Sample { every: Duration, suppress: bool },
    OnChange { tick: Duration },
}

/// Leaves sent on the same trigger, with the values last seen.
struct Group {
    items: Vec<(u32, Leaf)>,
    trigger: Trigger,
    next: Instant,
    last: Vec<super::Value>,
}

/// Serves one Subscribe stream. `Err` ends it with that status; `Ok` ends
/// it cleanly (ONCE done, or the client left).
pub(super) async fn run(
    mut inbound: Streaming<g::SubscribeRequest>,
    tx: &Tx,
    source: &Source,
    config: &GnmiConfig,
) -> Result<(), Status> {
    let first = tokio::select! {
        m = inbound.message() => m?,
        _ = tx.closed() => return Ok(()),
    };
    let list = match first.and_then(|r| r.request) {
        Some(Req::Subscribe(list)) => list,
        Some(_) => {
            return Err(Status::invalid_argument(
                "the first request must be a SubscriptionList",
            ));
        }
        None => return Ok(()),
    };
    encoding(list.encoding)?;
    check_models(&list.use_models)?;
    if list.use_aliases {
        return Err(Status::unimplemented("aliases are not supported"));
    }
    let mode = Mode::try_from(list.mode)
        .map_err(|_| Status::invalid_argument(format!("unknown mode {}", list.mode)))?;
    if list.subscription.is_empty() {
        return Err(Status::invalid_argument(
            "the SubscriptionList subscribes to nothing",
        ));
    }
    let target = list
        .prefix
        .as_ref()
        .map(|p| p.target.clone())
        .unwrap_or_default();
    let mut groups = plan(&list, config)?;
    let start = Instant::now();
    for group in &mut groups {
        group.last = source.read(&group.items);
        group.next = start + group.trigger.period();
    }
    let send_all = |groups: &[Group]| {
        let updates = groups
            .iter()
            .flat_map(|g| g.items.iter().zip(&g.last))
            .map(|(&(port, leaf), v)| leaf_update(port, leaf, v.clone()))
            .collect();
        notification(&target, updates)
    };
    if !list.updates_only && !send(tx, update(send_all(&groups))).await {
        return Ok(());
    }
    if !send(tx, sync()).await {
        return Ok(());
    }
    match mode {
        Mode::Once => Ok(()),
        Mode::Poll => loop {
            let m = tokio::select! {
                m = inbound.message() => m?,
                _ = tx.closed() => return Ok(()),
            };
            match m.and_then(|r| r.request) {
                Some(Req::Poll(_)) => {
                    for group in &mut groups {
                        group.last = source.read(&group.items);
                    }
                    if !send(tx, update(send_all(&groups))).await || !send(tx, sync()).await {
                        return Ok(());
                    }
                }
                Some(_) => {
                    return Err(Status::invalid_argument(
                        "a POLL subscription takes only Poll requests",
                    ));
                }
                None => return Ok(()),
            }
        },
        Mode::Stream => stream(inbound, tx, source, &target, groups).await,
    }
}

/// The STREAM loop: wakes at the earliest due group, sends what its
/// trigger says, until the client leaves.
async fn stream(
    mut inbound: Streaming<g::SubscribeRequest>,
    tx: &Tx,
    source: &Source,
    target: &str,
    mut groups: Vec<Group>,
) -> Result<(), Status> {
    // A client may close its side and keep reading.
    let mut inbound_open = true;
    loop {
        let due = groups
            .iter()
            .map(|g| g.next)
            .min()
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            _ = tx.closed() => return Ok(()),
            m = inbound.message(), if inbound_open => match m? {
                None => inbound_open = false,
                Some(_) => {
                    return Err(Status::invalid_argument(
                        "a STREAM subscription takes no further requests",
                    ));
                }
            },
            _ = tokio::time::sleep_until(due) => {
                let now = Instant::now();
                let mut updates = Vec::new();
                for group in groups.iter_mut().filter(|g| g.next <= now) {
                    let values = source.read(&group.items);
                    for ((&(port, leaf), last), value) in
                        group.items.iter().zip(&mut group.last).zip(values)
                    {
                        let changed = *last != value;
                        let wanted = match group.trigger {
                            Trigger::Sample { suppress, .. } => changed || !suppress,
                            Trigger::OnChange { .. } => changed,
                        };
                        if wanted {
                            updates.push(leaf_update(port, leaf, value.clone()));
                        }
                        *last = value;
                    }
                    group.next = now + group.trigger.period();
                }
                if !updates.is_empty() && !send(tx, update(notification(target, updates))).await {
                    return Ok(());
                }
            }
        }
    }
}

impl Trigger {
    fn period(self) -> Duration {
        match self {
            Trigger::Sample { every, .. } => every,
            Trigger::OnChange { tick } => tick,
        }
    }
}

/// The groups of a SubscriptionList (values not read yet).
fn plan(list: &g::SubscriptionList, config: &GnmiConfig) -> Result<Vec<Group>, Status> {
    use g::SubscriptionMode as M;
    let mut groups = Vec::new();
    let mut add = |items: Vec<(u32, Leaf)>, trigger| {
        if !items.is_empty() {
            groups.push(Group {
                items,
                trigger,
                next: Instant::now(),
                last: Vec::new(),
            });
        }
    };
    let on_change = Trigger::OnChange {
        tick: config.on_change_tick,
    };
    for sub in &list.subscription {
        let selection = path::resolve(list.prefix.as_ref(), sub.path.as_ref(), &config.ports)?;
        let items: Vec<(u32, Leaf)> = selection
            .ports
            .iter()
            .flat_map(|&p| selection.node.leaves().into_iter().map(move |l| (p, l)))
            .collect();
        let mode = M::try_from(sub.mode).map_err(|_| {
            Status::invalid_argument(format!("unknown subscription mode {}", sub.mode))
        })?;
        match mode {
            M::OnChange => add(items, on_change),
            M::Sample => {
                let asked = Duration::from_nanos(sub.sample_interval);
                add(
                    items,
                    Trigger::Sample {
                        every: asked.max(config.min_sample_interval),
                        suppress: sub.suppress_redundant,
                    },
                );
            }
            M::TargetDefined => {
                let (counters, state): (Vec<_>, Vec<_>) =
                    items.into_iter().partition(|(_, l)| l.is_counter());
                add(state, on_change);
                add(
                    counters,
                    Trigger::Sample {
                        every: config.target_defined_sample.max(config.min_sample_interval),
                        suppress: false,
                    },
                );
            }
        }
    }
    Ok(groups)
}

fn update(n: g::Notification) -> g::SubscribeResponse {
    g::SubscribeResponse {
        response: Some(g::subscribe_response::Response::Update(n)),
        extension: Vec::new(),
    }
}

fn sync() -> g::SubscribeResponse {
    g::SubscribeResponse {
        response: Some(g::subscribe_response::Response::SyncResponse(true)),
        extension: Vec::new(),
    }
}

/// Sends `r`; false when the client has left.
async fn send(tx: &Tx, r: g::SubscribeResponse) -> bool {
    tx.send(Ok(r)).await.is_ok()
}
