//! Which fields of `standard_metadata` a program can read, found at load
//! time, so that a pass writes only those the program (or the
//! architecture) can see.
//!
//! Every expression of the program is visited. A field is read when a
//! member access names it; an expression of the `standard_metadata` type
//! used whole (passed to a control, an action, a function or an extern
//! other than `mark_to_drop`, assigned, compared, digested) reads every
//! field. Assignments to a field count as reads too, which only errs on
//! the side of writing.

use janus_p4::ir::{self, Callee, Expr, ExprKind, Stmt, StmtKind, Transition};
use janus_p4::types::TyId;

/// The fields of `standard_metadata` a program reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct StdReads {
    /// Every field (the struct is used whole somewhere).
    all: bool,
    /// The indexes of the fields read by name.
    fields: Vec<u32>,
}

impl StdReads {
    /// The fields of the struct type `sm_ty` that program `p` reads.
    pub(crate) fn of(p: &ir::Program, sm_ty: TyId) -> StdReads {
        let mut v = Visitor {
            sm_ty,
            reads: StdReads::default(),
        };
        for a in &p.actions {
            v.stmts(&a.body);
        }
        for f in &p.functions {
            v.stmts(&f.body);
        }
        for t in &p.tables {
            v.table(t);
        }
        for i in &p.instances {
            i.args.iter().for_each(|e| v.expr(e));
        }
        for b in &p.blocks {
            v.stmts(&b.locals);
            v.stmts(&b.apply);
            for s in &b.states {
                v.stmts(&s.body);
                if let Transition::Select(keys, cases) = &s.transition {
                    keys.iter().for_each(|e| v.expr(e));
                    cases.iter().for_each(|c| v.expr(&c.keyset));
                }
            }
        }
        v.reads
    }

    /// Whether field `index` is read.
    pub(crate) fn reads(&self, index: usize) -> bool {
        self.all || self.fields.iter().any(|f| *f as usize == index)
    }
}

/// Walks statements and expressions, noting reads of `standard_metadata`.
struct Visitor {
    sm_ty: TyId,
    reads: StdReads,
}

impl Visitor {
    fn table(&mut self, t: &ir::Table) {
        t.keys.iter().for_each(|k| self.expr(&k.expr));
        for call in t.actions.iter().chain(&t.default_action) {
            self.action_call(call);
        }
        for e in &t.entries {
            e.keys.iter().for_each(|k| self.expr(k));
            self.action_call(&e.action);
        }
    }

    fn action_call(&mut self, call: &ir::ActionCall) {
        call.args.iter().flatten().for_each(|e| self.expr(e));
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Assign(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            StmtKind::Call(e) | StmtKind::If(e, ..) | StmtKind::Switch(e, _) => self.expr(e),
            StmtKind::Return(e) | StmtKind::Declare(_, e) => e.iter().for_each(|e| self.expr(e)),
            StmtKind::For { cond, .. } => cond.iter().for_each(|e| self.expr(e)),
            StmtKind::ForIn { collection, .. } => self.expr(collection),
            StmtKind::Block(_) | StmtKind::Exit | StmtKind::Break | StmtKind::Continue => {}
        }
        for body in s.bodies() {
            self.stmts(body);
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Field(base, i) if base.ty == self.sm_ty => {
                self.reads.fields.push(*i);
                // The base itself (a variable, or a struct member holding
                // the metadata) is not a whole use.
                self.children_of_base(base);
                return;
            }
            ExprKind::Call(Callee::ExternFunction { name, .. }, _) if name == "mark_to_drop" => {
                // Writes `egress_spec` and `mcast_grp`, reads nothing.
                return;
            }
            _ if e.ty == self.sm_ty => self.reads.all = true,
            _ => {}
        }
        for c in e.operands() {
            self.expr(c);
        }
    }

    /// The parts of the base of a field access, which are visited as usual.
    fn children_of_base(&mut self, base: &Expr) {
        for c in base.operands() {
            self.expr(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StdReads;

    /// The reads of the `standard_metadata` fields named in `wanted` by
    /// the v1model program whose ingress apply block is `ingress`.
    fn reads(ingress: &str, egress: &str, wanted: &[&str]) -> Vec<bool> {
        let src = format!(
            r#"
#include <core.p4>
#include <v1model.p4>
header h_t {{ bit<16> a; }}
struct hs {{ h_t h; }}
struct m_t {{ bit<48> t; }}
parser P(packet_in pkt, out hs h, inout m_t m, inout standard_metadata_t sm) {{
    state start {{ pkt.extract(h.h); transition accept; }}
}}
control V(inout hs h, inout m_t m) {{ apply {{ }} }}
control Sub(inout standard_metadata_t s) {{ apply {{ s.egress_spec = 1; }} }}
control I(inout hs h, inout m_t m, inout standard_metadata_t sm) {{
    Sub() sub;
    apply {{ {ingress} }}
}}
control E(inout hs h, inout m_t m, inout standard_metadata_t sm) {{ apply {{ {egress} }} }}
control C(inout hs h, inout m_t m) {{ apply {{ }} }}
control D(packet_out pkt, in hs h) {{ apply {{ pkt.emit(h.h); }} }}
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#
        );
        let c = janus_p4::driver::compile_source("reads.p4", src, &Default::default());
        assert!(!c.has_errors(), "{}", c.render(false));
        let p = c.ir.expect("ir");
        let sm_ty = p
            .blocks
            .iter()
            .find(|b| b.name == "P")
            .and_then(|b| b.params.get(3))
            .expect("sm")
            .ty;
        let info = p.types.struct_info(sm_ty).expect("struct");
        let r = StdReads::of(&p, sm_ty);
        wanted
            .iter()
            .map(|w| {
                let i = info.fields.iter().position(|f| f.name == *w).expect(w);
                r.reads(i)
            })
            .collect()
    }

    #[test]
    fn named_fields_are_read_and_others_not() {
        let got = reads(
            "m.t = sm.ingress_global_timestamp; mark_to_drop(sm);",
            "if (sm.egress_port == 2) { h.h.a = 1; }",
            &[
                "ingress_global_timestamp",
                "egress_port",
                "egress_global_timestamp",
                "packet_length",
                "instance_type",
            ],
        );
        assert_eq!(got, [true, true, false, false, false]);
    }

    #[test]
    fn a_whole_use_reads_every_field() {
        let got = reads(
            "sub.apply(sm);",
            "",
            &["egress_global_timestamp", "egress_rid"],
        );
        assert_eq!(got, [true, true]);
        let got = reads(
            "",
            "digest<standard_metadata_t>(1, sm);",
            &["packet_length"],
        );
        assert_eq!(got, [true]);
    }

    #[test]
    fn a_field_read_inside_an_expression_is_a_read() {
        let got = reads(
            "",
            "h.h.a = (bit<16>)sm.egress_rid;",
            &["egress_rid", "instance_type"],
        );
        assert_eq!(got, [true, false]);
    }
}
