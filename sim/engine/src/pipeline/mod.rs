//! Loading a program's pipeline, whatever its architecture: the blocks
//! the `main` package is given, the tables, action profiles and value
//! sets of every block instance (by instance path, each in a slot), and
//! each block compiled against its frame. An architecture adds its
//! package's shape (which parameters share which storage), its externs
//! and its packet loop; `janus-v1model` is one.
//!
//! ```text
//! lower_calls -> package_blocks -> StoragePlan -> Entities::load
//!             -> (the architecture's externs) -> compile_parser / compile_control
//! ```

mod error;
mod info;
pub(crate) mod tables;

pub use error::LoadError;
pub use info::{ActionInfo, KeyInfo, ProfileInfo, TableInfo, ValueSetInfo};

use crate::env::ApplyResult;
use crate::eval::{CompileError, Compiler, InstanceCtx};
use crate::exec::Op;
use crate::externs::ExternResolver;
use crate::parser::CompiledParser;
use crate::plan::StoragePlan;
use crate::profile::ActionProfile;
use crate::table::TableState;
use janus_p4::ir::{self, InstanceOf};
use std::collections::HashMap;

/// A parser or control instance given to the `main` package.
#[derive(Clone, Debug)]
pub struct PackageBlock {
    pub block: ir::BlockId,
    /// Its instance path (the control-plane prefix of its entities).
    pub path: String,
    pub instance: ir::InstanceId,
}

/// Rewrites the calls the engine runs in another form (see
/// [`crate::lower::lower_calls`]); run once, before anything else loads.
pub fn prepare(program: &mut ir::Program) {
    crate::lower::lower_calls(program);
}

/// The blocks given to `main`, when `main` is an instance of `package`
/// with `arity` arguments, each a parser or control instance.
pub fn package_blocks(
    program: &ir::Program,
    package: &'static str,
    arity: usize,
) -> Result<Vec<PackageBlock>, LoadError> {
    let main = program.main.ok_or(LoadError::NoPackage(package))?;
    let pkg = &program.instances[main.0 as usize];
    if !matches!(&pkg.of, InstanceOf::Package { name } if name == package)
        || pkg.args.len() != arity
    {
        return Err(LoadError::NoPackage(package));
    }
    let bad =
        |index: usize, span| LoadError::BadArgument { package, index }.at(&program.locator, span);
    pkg.args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let ir::ExprKind::Instance(inst) = a.kind else {
                return Err(bad(i, a.span));
            };
            let instance = &program.instances[inst.0 as usize];
            let InstanceOf::Block(block) = instance.of else {
                return Err(bad(i, a.span));
            };
            Ok(PackageBlock {
                block,
                path: instance.name.clone(),
                instance: inst,
            })
        })
        .collect()
}

/// The control plane's entities of a loaded pipeline and their contents:
/// tables (value sets after them, as tables of members), action profiles
/// and selectors, by slot.
pub struct Entities {
    /// Table contents by slot; the value sets' member tables follow the
    /// tables.
    pub tables: Vec<TableState>,
    /// The result of each table's last apply, by slot (reused per packet).
    pub results: Vec<ApplyResult>,
    /// Profile contents, by the slot [`TableState::profile`] names.
    pub profiles: Vec<ActionProfile>,
    infos: Vec<TableInfo>,
    profile_infos: Vec<ProfileInfo>,
    value_sets: Vec<ValueSetInfo>,
    table_slots: HashMap<(String, ir::TableId), u32>,
    value_set_slots: HashMap<(String, ir::ValueSetId), u32>,
}

impl Entities {
    /// The tables, profiles and value sets of every block instance, in
    /// instance-path order. `profile` makes the empty profile a table's
    /// `implementation` instance declares (the architecture's extern:
    /// `action_profile`, `ActionSelector`, ...), `None` if it is not one.
    pub fn load(
        program: &ir::Program,
        profile: &dyn Fn(ir::InstanceId) -> Option<ActionProfile>,
    ) -> Result<Entities, LoadError> {
        let locator = &program.locator;
        let mut tables = Vec::new();
        let mut infos = Vec::new();
        let mut table_slots = HashMap::new();
        let paths = program.instance_paths();
        for (b, path) in &paths {
            for &t in &program.blocks[b.0 as usize].tables {
                let table = &program.tables[t.0 as usize];
                let state = tables::table_from_ir(program, table)
                    .map_err(|e| LoadError::compile(path, e).at(locator, table.span))?;
                table_slots.insert((path.clone(), t), tables.len() as u32);
                infos.push(TableInfo::of(program, table, *b, path));
                tables.push(state);
            }
        }
        // One profile per implementation instance per block path, in the
        // order of the first table using it.
        let mut profiles = Vec::new();
        let mut profile_infos: Vec<ProfileInfo> = Vec::new();
        let mut by_slot: Vec<(&(String, ir::TableId), &u32)> = table_slots.iter().collect();
        by_slot.sort_by_key(|(_, slot)| **slot);
        for ((path, t), &slot) in by_slot {
            let Some(inst) = program.tables[t.0 as usize].implementation else {
                continue;
            };
            let name = program.instances[inst.0 as usize].cp_name.under(path);
            let at = match profile_infos.iter().position(|p| p.name == name) {
                Some(at) => at,
                None => {
                    profiles.push(profile(inst).ok_or_else(|| {
                        LoadError::compile(
                            path,
                            CompileError::Unsupported("this table implementation"),
                        )
                        .at(locator, program.instances[inst.0 as usize].span)
                    })?);
                    profile_infos.push(ProfileInfo {
                        name,
                        tables: Vec::new(),
                    });
                    profiles.len() - 1
                }
            };
            profile_infos[at].tables.push(slot as usize);
            tables[slot as usize].profile = Some(at as u32);
        }
        // Value sets after the tables, so that table slots match `infos`.
        let mut value_set_slots = HashMap::new();
        let mut value_sets = Vec::new();
        for (b, path) in &paths {
            for &v in &program.blocks[b.0 as usize].value_sets {
                let vs = &program.value_sets[v.0 as usize];
                let span = program.blocks[b.0 as usize].span;
                let state = tables::value_set_table(program, vs)
                    .map_err(|e| LoadError::compile(path, e).at(locator, span))?;
                value_set_slots.insert((path.clone(), v), tables.len() as u32);
                value_sets.push(ValueSetInfo {
                    name: vs.cp_name.under(path),
                    slot: tables.len(),
                });
                tables.push(state);
            }
        }
        Ok(Entities {
            results: vec![ApplyResult::default(); tables.len()],
            tables,
            profiles,
            infos,
            profile_infos,
            value_sets,
            table_slots,
            value_set_slots,
        })
    }

    /// Every table as (instance path, table, slot), in slot order.
    pub fn table_slots(&self) -> Vec<(&str, ir::TableId, usize)> {
        let mut slots: Vec<_> = self
            .table_slots
            .iter()
            .map(|((path, t), slot)| (path.as_str(), *t, *slot as usize))
            .collect();
        slots.sort_by_key(|s| s.2);
        slots
    }

    /// The tables, by slot.
    pub fn tables(&self) -> &[TableInfo] {
        &self.infos
    }

    /// The contents of the table in `slot`.
    pub fn table(&self, slot: usize) -> Option<&TableState> {
        self.tables.get(slot)
    }

    /// The contents of the table in `slot`, for the control plane.
    pub fn table_mut(&mut self, slot: usize) -> Option<&mut TableState> {
        self.tables.get_mut(slot)
    }

    /// The action profiles and selectors.
    pub fn profiles(&self) -> &[ProfileInfo] {
        &self.profile_infos
    }

    /// The members and groups of the profile named `name`.
    pub fn profile_mut(&mut self, name: &str) -> Option<&mut ActionProfile> {
        let at = self.profile_infos.iter().position(|p| p.name == name)?;
        self.profiles.get_mut(at)
    }

    /// The parser value sets.
    pub fn value_sets(&self) -> &[ValueSetInfo] {
        &self.value_sets
    }

    /// The members of the value set named `name`, as a table with one
    /// ternary key per field (add members with [`TableState::insert`]).
    pub fn value_set_mut(&mut self, name: &str) -> Option<&mut TableState> {
        let slot = self.value_sets.iter().find(|v| v.name == name)?.slot;
        self.tables.get_mut(slot)
    }

    /// Compiles parser `block` against its frame in `plan`; `shared`
    /// gives, by parameter position, the arena byte where the storage the
    /// package passes to that parameter lives (`None`: the parameter is
    /// the block's own, or a `packet_in`).
    pub fn compile_parser(
        &self,
        program: &ir::Program,
        plan: &StoragePlan,
        block: &PackageBlock,
        shared: &[Option<u32>],
        externs: &dyn ExternResolver,
    ) -> Result<CompiledParser, LoadError> {
        self.compile_with(
            program,
            plan,
            block,
            shared,
            externs,
            crate::parser::compile_parser,
        )
    }

    /// Compiles control `block`, as [`Entities::compile_parser`] does a
    /// parser.
    pub fn compile_control(
        &self,
        program: &ir::Program,
        plan: &StoragePlan,
        block: &PackageBlock,
        shared: &[Option<u32>],
        externs: &dyn ExternResolver,
    ) -> Result<Vec<Op>, LoadError> {
        self.compile_with(
            program,
            plan,
            block,
            shared,
            externs,
            crate::exec::compile_control,
        )
    }

    fn compile_with<T>(
        &self,
        program: &ir::Program,
        plan: &StoragePlan,
        block: &PackageBlock,
        shared: &[Option<u32>],
        externs: &dyn ExternResolver,
        compile: impl FnOnce(&mut Compiler<'_>, &ir::Block, &[ir::Expr]) -> Result<T, CompileError>,
    ) -> Result<T, LoadError> {
        let path = &block.path;
        let def = &program.blocks[block.block.0 as usize];
        let err = |e| LoadError::compile(path, e).at(&program.locator, def.span);
        let frame = plan
            .instance_frame(path)
            .ok_or_else(|| err(CompileError::Unsupported("an instance without storage")))?;
        let mut vars = plan.shared_vars();
        vars.extend(frame.vars.iter().map(|(v, o)| (*v, frame.base + o)));
        for (p, at) in def.params.iter().zip(shared) {
            if let Some(at) = at {
                vars.insert(p.var, *at);
            }
        }
        let mut c = Compiler::new(program, vars);
        let ctx = InstanceCtx {
            plan,
            path: path.clone(),
            table_slots: &self.table_slots,
            value_set_slots: &self.value_set_slots,
        };
        ctx.bind_slots(&mut c, path);
        c.externs = Some(externs);
        c.instances = Some(ctx);
        let ctor_args = &program.instances[block.instance.0 as usize].args;
        compile(&mut c, def, ctor_args).map_err(err)
    }
}
