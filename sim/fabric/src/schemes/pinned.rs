//! Controller path pinning: every flow follows the path the planner
//! ([`Plan`]) gave it, the same for every repetition. When a failure (as
//! the routers see it) cuts a planned path, the flow is replanned alone
//! onto its least loaded live path, and keeps that path afterwards.

use super::live::View;
use super::planner::Plan;
use super::{Diagnostics, FlowRef, RouterContext, SchemeRouter};
use crate::engine::{FlowKey, Network, Route, Router};
use crate::topo::Topology;

/// The pinning router.
#[derive(Debug, Clone)]
pub struct Pinned<'a> {
    topo: &'a Topology,
    plan: Plan,
}

impl<'a> Pinned<'a> {
    /// Plans the run's flows.
    pub fn new(ctx: &RouterContext<'a>) -> Pinned<'a> {
        let view = View {
            topo: ctx.topo,
            net: ctx.net,
        };
        Pinned {
            topo: ctx.topo,
            plan: Plan::build(view, ctx.jobs),
        }
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }
}

impl Router for Pinned<'_> {
    fn route(&mut self, flow: &FlowKey, net: &Network) -> Route {
        let Some(i) = self.plan.index(FlowRef::from(flow)) else {
            // Not in the plan (the engine plays the planned jobs): the
            // first path.
            let path = View::walk_static(self.topo, flow.src, flow.dst, |_, _| 0);
            return Route::single(path.unwrap_or_default());
        };
        let path = &self.plan.flows()[i].path;
        if path.iter().all(|&l| net.is_live(l)) {
            return Route::single(path.clone());
        }
        let view = View {
            topo: self.topo,
            net,
        };
        match self.plan.replan(&view, i) {
            Some(p) => Route::single(p.clone()),
            None => Route::single(self.plan.flows()[i].path.clone()),
        }
    }
}

impl SchemeRouter for Pinned<'_> {
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics {
            plan: Some(self.plan.stats()),
            ..Diagnostics::default()
        }
    }
}
