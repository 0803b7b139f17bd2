//! The control plane's view of a loaded pipeline's entities: names,
//! keys, actions and parameters, by slot.

use janus_p4::ir;

/// A table of the running pipeline, as the control plane sees it.
#[derive(Clone, Debug)]
pub struct TableInfo {
    /// The control-plane name (`MyIngress.ipv4_lpm`).
    pub name: String,
    pub keys: Vec<KeyInfo>,
    pub actions: Vec<ActionInfo>,
    /// `const default_action`: the control plane cannot change the default.
    pub default_is_const: bool,
    /// The program gives the table entries (`entries`, const or not). On
    /// bmv2 both lock the table: p4c writes them into the JSON alike and
    /// bmv2 refuses control-plane adds to a table it loaded entries into.
    pub entries_fixed: bool,
}

/// An action profile or selector: its control-plane name and the slots of
/// the tables whose entries point into it.
#[derive(Clone, Debug)]
pub struct ProfileInfo {
    pub name: String,
    pub tables: Vec<usize>,
}

/// A parser value set: its control-plane name and the slot of the table
/// holding its members.
#[derive(Clone, Debug)]
pub struct ValueSetInfo {
    pub name: String,
    pub slot: usize,
}

#[derive(Clone, Debug)]
pub struct KeyInfo {
    /// The key's name (`hdr.ipv4.dstAddr` or its `@name`).
    pub name: String,
    /// The key's expression as written, where it differs from `name`
    /// (fields renamed by their `@name`): the STF runner takes either.
    pub alias: Option<String>,
    pub match_kind: String,
    pub width: u32,
}

#[derive(Clone, Debug)]
pub struct ActionInfo {
    /// The action's control-plane name.
    pub name: String,
    /// Its control-plane parameters: (name, width).
    pub params: Vec<(String, u32)>,
}

impl TableInfo {
    /// Table `t` of the block `block` instantiated at `path`.
    pub(crate) fn of(p: &ir::Program, t: &ir::Table, block: ir::BlockId, path: &str) -> TableInfo {
        let width = |ty| crate::eval::scalar_shape(&p.types, ty).map_or(0, |(w, _)| w);
        let local = &p.blocks[block.0 as usize].actions;
        TableInfo {
            name: t.cp_name.under(path),
            keys: t
                .keys
                .iter()
                .filter(|k| k.match_kind != "selector")
                .map(|k| KeyInfo {
                    name: k.name.clone(),
                    alias: k.written.clone(),
                    match_kind: k.match_kind.clone(),
                    width: width(k.expr.ty),
                })
                .collect(),
            actions: t
                .actions
                .iter()
                .map(|a| {
                    let act = &p.actions[a.action.0 as usize];
                    let prefix = if local.contains(&a.action) { path } else { "" };
                    ActionInfo {
                        name: act.cp_name.under(prefix),
                        params: act
                            .params
                            .iter()
                            .filter(|x| x.direction == ir::Direction::None)
                            .map(|x| (x.name.clone(), width(x.ty)))
                            .collect(),
                    }
                })
                .collect(),
            default_is_const: t.default_is_const,
            entries_fixed: t.entries_const || !t.entries.is_empty(),
        }
    }
}
