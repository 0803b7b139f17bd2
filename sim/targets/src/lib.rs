//! The architectures Janus runs, behind one entry point: [`load`] reads
//! the package a program's `main` instantiates and loads the program onto
//! the architecture that defines it, as a [`Target`]. The control plane,
//! the card and the CLI load pipelines through here and never name an
//! architecture; adding one is a crate implementing [`Target`] and an arm
//! in [`Architecture::of`].

use janus_engine::pipeline::LoadError;
use janus_engine::target::Target;
use janus_p4::ir::{self, InstanceOf};

/// An architecture Janus runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Architecture {
    /// bmv2's v1model (`V1Switch`), [`janus_v1model`].
    V1Model,
}

impl Architecture {
    /// The architecture of the package `main` instantiates, if Janus runs
    /// it.
    pub fn of(program: &ir::Program) -> Option<Architecture> {
        let main = program.instances.get(program.main?.0 as usize)?;
        match &main.of {
            InstanceOf::Package { name } if name == "V1Switch" => Some(Architecture::V1Model),
            _ => None,
        }
    }

    /// The name of its top-level package.
    pub fn package(self) -> &'static str {
        match self {
            Architecture::V1Model => "V1Switch",
        }
    }
}

/// Loads `program` onto the architecture its `main` package names. A
/// program whose package no architecture defines is refused as v1model
/// refuses it (the architecture Janus takes by default).
pub fn load(program: ir::Program) -> Result<Box<dyn Target>, LoadError> {
    match Architecture::of(&program).unwrap_or(Architecture::V1Model) {
        Architecture::V1Model => Ok(Box::new(janus_v1model::V1Switch::load(program)?)),
    }
}
