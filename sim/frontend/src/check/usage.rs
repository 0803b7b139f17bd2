//! Warning W0001 (unused declaration) where p4c's front end gives it
//! (`RemoveUnusedDeclarations` with warnings on): a parameter of an action
//! or function that is never referenced, a table never applied, an
//! instance never referenced (but `main`). As in p4c, nothing is reported
//! inside a parser or control that is never instantiated, since p4c
//! removes those whole.

use super::Checker;
use crate::diag::Code;
use crate::ir::{BlockId, InstanceId, TableId, VarId};
use crate::source::Span;
use std::collections::HashSet;

/// A declaration that draws W0001 unless it is used.
#[derive(Clone, Debug)]
pub(crate) enum Candidate {
    Param {
        var: VarId,
        owner: String,
        what: &'static str,
    },
    Table(TableId),
    Instance(InstanceId),
}

/// What the checker saw used, and what may be unused.
#[derive(Clone, Debug, Default)]
pub(crate) struct Usage {
    pub vars: HashSet<VarId>,
    pub tables: HashSet<TableId>,
    pub instances: HashSet<InstanceId>,
    pub blocks: HashSet<BlockId>,
    /// Candidates, with the parser or control they are declared in.
    pub candidates: Vec<(Candidate, Option<BlockId>, Span, String)>,
}

impl Checker<'_> {
    /// Records a declaration that is reported at the end if never used.
    pub(crate) fn may_be_unused(&mut self, c: Candidate, span: Span, name: &str) {
        let block = self.current_block;
        self.usage
            .candidates
            .push((c, block, span, name.to_string()));
    }

    /// An action's parameters, reported if never referenced, as p4c's
    /// `RemoveUnusedDeclarations` reports every parameter of an action it
    /// visits ("'x' is unused"), control-plane ones included.
    pub(crate) fn action_params_may_be_unused(
        &mut self,
        a: &crate::ast::ActionDecl,
        params: &[crate::ir::Param],
    ) {
        if suppressed(&a.annotations) {
            return;
        }
        for (p, decl) in params.iter().zip(&a.params) {
            if suppressed(&decl.annotations) {
                continue;
            }
            self.may_be_unused(
                Candidate::Param {
                    var: p.var,
                    owner: a.name.name.clone(),
                    what: "action",
                },
                decl.name.span,
                &decl.name.name,
            );
        }
    }

    /// The W0001 warnings, once the whole program is checked.
    pub(crate) fn report_unused(&mut self) {
        let candidates = std::mem::take(&mut self.usage.candidates);
        for (c, block, span, name) in candidates {
            if block.is_some_and(|b| !self.usage.blocks.contains(&b)) {
                continue;
            }
            let message = match c {
                Candidate::Param { var, owner, what } => {
                    if self.usage.vars.contains(&var) {
                        continue;
                    }
                    format!("parameter `{name}` of {what} `{owner}` is never used")
                }
                Candidate::Table(t) => {
                    if self.usage.tables.contains(&t) {
                        continue;
                    }
                    format!("table `{name}` is never applied")
                }
                Candidate::Instance(i) => {
                    if self.usage.instances.contains(&i) {
                        continue;
                    }
                    format!("instance `{name}` is never used")
                }
            };
            self.warning(Code::UnusedDeclaration, span, message);
        }
    }
}

/// `@unused` or `@noWarn("unused")` on a declaration turns the warning off.
pub(crate) fn suppressed(annotations: &[crate::ast::Annotation]) -> bool {
    annotations.iter().any(|a| match a.name.name.as_str() {
        "unused" => true,
        "noWarn" => matches!(
            a.single_expr(),
            Some(crate::ast::Expr { kind: crate::ast::ExprKind::Str(s), .. }) if s == "unused"
        ),
        _ => false,
    })
}
