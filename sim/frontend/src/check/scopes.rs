//! The checker's name scopes: the global scope, which always exists, and
//! the scopes nested in it (blocks, parameters, statements), innermost
//! last. Leaving a scope never leaves the global one.

use super::Binding;
use std::collections::HashMap;

/// One scope's names.
pub(crate) type Scope = HashMap<String, Binding>;

/// The global scope and the scopes nested in it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scopes {
    global: Scope,
    /// Innermost last.
    nested: Vec<Scope>,
}

impl Scopes {
    /// Scopes with `global` as the global scope and nothing nested.
    pub(crate) fn with_global(global: Scope) -> Scopes {
        Scopes {
            global,
            nested: Vec::new(),
        }
    }

    /// Enters a new innermost scope.
    pub(crate) fn push(&mut self) {
        self.nested.push(Scope::new());
    }

    /// Leaves the innermost scope (never the global one).
    pub(crate) fn pop(&mut self) {
        self.nested.pop();
    }

    /// Whether no scope is open beside the global one.
    pub(crate) fn at_top_level(&self) -> bool {
        self.nested.is_empty()
    }

    pub(crate) fn global(&self) -> &Scope {
        &self.global
    }

    pub(crate) fn innermost(&self) -> &Scope {
        self.nested.last().unwrap_or(&self.global)
    }

    pub(crate) fn innermost_mut(&mut self) -> &mut Scope {
        self.nested.last_mut().unwrap_or(&mut self.global)
    }

    /// The scopes around the innermost one, innermost first (the global
    /// one last; none at the top level).
    pub(crate) fn enclosing(&self) -> impl Iterator<Item = &Scope> {
        let outer = self.nested.len().saturating_sub(1);
        let global = (!self.nested.is_empty()).then_some(&self.global);
        self.nested[..outer].iter().rev().chain(global)
    }

    /// `name` in the innermost scope that has it.
    pub(crate) fn lookup(&self, name: &str) -> Option<&Binding> {
        self.nested
            .iter()
            .rev()
            .chain(std::iter::once(&self.global))
            .find_map(|s| s.get(name))
    }
}
