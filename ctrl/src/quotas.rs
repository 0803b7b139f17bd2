//! Tenant quotas: how many entries each tenant may hold in a table shared
//! between tenants (one the program marks `@janus_tenant_key`), so that one
//! tenant cannot fill a table and lock the others out of it.
//!
//! An entry counts against the tenant its tenant key field names, whoever
//! wrote it; every INSERT over the tenant's quota is RESOURCE_EXHAUSTED
//! (naming the quota), before the switch changes, and a DELETE gives the
//! place back. A table's default share is `@janus_tenant_quota(N)` on the
//! table, else a quarter of its size ([`DEFAULT_SHARE_DIVISOR`]). The
//! operator sets a tenant's quota at run time with a P4Runtime
//! `ExternEntry` of type [`QUOTA_EXTERN_TYPE`] (extern id: the table's id;
//! entry: a `janus.TenantQuota`): INSERT or MODIFY sets it, DELETE puts
//! the default share back. Reads of that type list, per table, every
//! tenant that holds entries or has a quota set, with its limit and use
//! (a tenant sees its own). Quota writes are journaled like every update,
//! and carried over by RECONCILE_AND_COMMIT and snapshots.

use crate::codec::{RpcError, invalid};
use crate::proto::janus::TenantQuota;
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::tables::{TableMap, Tables};
use janus_engine::table::FieldMatch;
use prost::Message;
use std::collections::{BTreeMap, HashMap};
use tonic::Code;

/// The `ExternEntry.extern_type_id` of tenant quotas.
pub const QUOTA_EXTERN_TYPE: u32 = 0xC0;

/// The type URL of the entry of a quota `ExternEntry`.
pub const QUOTA_TYPE_URL: &str = "type.googleapis.com/janus.TenantQuota";

/// The annotation setting a tenant table's default share (entries per
/// tenant).
pub const QUOTA_ANNOTATION: &str = "@janus_tenant_quota";

/// Without `@janus_tenant_quota`, a tenant may hold this fraction
/// (1/N) of a tenant table's size.
pub const DEFAULT_SHARE_DIVISOR: u64 = 4;

/// The quotas and use of the tenant tables of a pipeline.
#[derive(Debug, Default)]
pub(crate) struct Quotas {
    /// Tenant table id -> (position of the tenant key field in the
    /// switch's key, default share).
    tables: HashMap<u32, (usize, u64)>,
    /// (table, tenant) -> entries held.
    used: HashMap<(u32, u64), u64>,
    /// (table, tenant) -> quota set by the operator.
    limits: BTreeMap<(u32, u64), u64>,
}

impl Quotas {
    /// The tenant tables of `info` with their default shares;
    /// `tenant_field` gives a table's tenant key field, as the tenant
    /// policy finds it ([`crate::roles::TenantPolicy::tenant_field`]).
    pub(crate) fn build(
        info: &cfg::P4Info,
        tenant_field: impl Fn(u32) -> Option<u32>,
        tables: &Tables,
    ) -> Result<Quotas, String> {
        let mut q = Quotas::default();
        for t in &info.tables {
            let Some(pre) = &t.preamble else { continue };
            let Some(field_id) = tenant_field(pre.id) else {
                continue;
            };
            let Some(map) = tables.find(pre.id) else {
                continue;
            };
            let Some(pos) = map.field_position(field_id) else {
                continue;
            };
            let size = u64::try_from(t.size).unwrap_or(0);
            let share = match annotation_number(&pre.annotations, QUOTA_ANNOTATION) {
                Some(Ok(n)) => n,
                Some(Err(arg)) => {
                    return Err(format!(
                        "table {}: {QUOTA_ANNOTATION}({arg}) is not a number of entries",
                        pre.name
                    ));
                }
                None => (size / DEFAULT_SHARE_DIVISOR).max(1),
            };
            q.tables.insert(pre.id, (pos, share));
        }
        Ok(q)
    }

    fn limit(&self, table: u32, tenant: u64) -> u64 {
        self.limits
            .get(&(table, tenant))
            .copied()
            .or_else(|| self.tables.get(&table).map(|t| t.1))
            .unwrap_or(u64::MAX)
    }

    /// The tenant an entry with `key` of table `table` counts against, if
    /// the table is a tenant table.
    fn tenant_of(&self, table: u32, key: &[FieldMatch]) -> Option<u64> {
        let (pos, _) = self.tables.get(&table)?;
        match key.get(*pos)? {
            FieldMatch::Exact(v) => v.to_u64(),
            _ => None,
        }
    }
}

/// The numeric argument of `@name(N)` among `annotations`: `Err` with the
/// argument when it is not a number.
fn annotation_number(annotations: &[String], name: &str) -> Option<Result<u64, String>> {
    annotations.iter().find_map(|a| {
        let inner = a.strip_prefix(name)?.strip_prefix('(')?.strip_suffix(')')?;
        let arg = inner.trim();
        Some(arg.parse::<u64>().map_err(|_| arg.to_string()))
    })
}

impl Quotas {
    /// Refuses an INSERT of an entry with `key` into table `t` that would
    /// take its tenant over its quota.
    pub(crate) fn check(&self, t: &TableMap, key: &[FieldMatch]) -> Result<(), RpcError> {
        let Some(tenant) = self.tenant_of(t.id, key) else {
            return Ok(());
        };
        let used = self.used.get(&(t.id, tenant)).copied().unwrap_or(0);
        let limit = self.limit(t.id, tenant);
        if used >= limit {
            return Err(RpcError::new(
                Code::ResourceExhausted,
                format!(
                    "{}: tenant {tenant} holds {used} entries, its quota (janus.TenantQuota limit {limit}); the operator can raise it",
                    t.name
                ),
            ));
        }
        Ok(())
    }

    /// Counts an entry with `key` of table `t` in (`inserted`) or out.
    pub(crate) fn count(&mut self, t: &TableMap, key: &[FieldMatch], inserted: bool) {
        let Some(tenant) = self.tenant_of(t.id, key) else {
            return;
        };
        let used = self.used.entry((t.id, tenant)).or_default();
        if inserted {
            *used += 1;
        } else {
            *used = used.saturating_sub(1);
            if *used == 0 {
                self.used.remove(&(t.id, tenant));
            }
        }
    }

    /// An ExternEntry update: only tenant quotas can be written.
    pub(crate) fn write(
        &mut self,
        tables: &Tables,
        kind: p4::update::Type,
        e: &p4::ExternEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        if e.extern_type_id != QUOTA_EXTERN_TYPE {
            return Err(RpcError::new(
                Code::NotFound,
                format!(
                    "no extern of type {:#x} (v1model has no extern entries; {QUOTA_EXTERN_TYPE:#x} is Janus's tenant quota)",
                    e.extern_type_id
                ),
            ));
        }
        let (table, quota) = self.quota_target(tables, e)?;
        let quota =
            quota.ok_or_else(|| invalid("a tenant quota write needs its janus.TenantQuota"))?;
        match kind {
            Type::Insert | Type::Modify => {
                self.limits.insert((table, quota.tenant), quota.limit);
                Ok(())
            }
            Type::Delete => {
                self.limits.remove(&(table, quota.tenant));
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// The table and decoded quota of a quota ExternEntry (no entry: none).
    fn quota_target(
        &self,
        tables: &Tables,
        e: &p4::ExternEntry,
    ) -> Result<(u32, Option<TenantQuota>), RpcError> {
        if e.extern_id != 0 && !self.tables.contains_key(&e.extern_id) {
            tables.get(e.extern_id)?;
            return Err(invalid(format!(
                "table {} is not a tenant table (it has no @janus_tenant_key): it has no quotas",
                e.extern_id
            )));
        }
        let quota = match &e.entry {
            None => None,
            Some(any) => {
                if any.type_url.rsplit('/').next() != Some("janus.TenantQuota") {
                    return Err(invalid(format!(
                        "a tenant quota entry must be a janus.TenantQuota, not {:?}",
                        any.type_url
                    )));
                }
                Some(TenantQuota::decode(any.value.as_slice()).map_err(|err| {
                    invalid(format!("the janus.TenantQuota does not decode: {err}"))
                })?)
            }
        };
        Ok((e.extern_id, quota))
    }

    /// The quota entries an ExternEntry read asks for: per tenant table
    /// (extern id 0: every one), every tenant holding entries or with a
    /// quota set, or the one tenant its entry names.
    pub(crate) fn read(
        &self,
        tables: &Tables,
        f: &p4::ExternEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        if f.extern_type_id != QUOTA_EXTERN_TYPE && f.extern_type_id != 0 {
            return Err(RpcError::new(
                Code::NotFound,
                format!("no extern of type {:#x}", f.extern_type_id),
            ));
        }
        let (table, wanted) = self.quota_target(tables, f)?;
        let mut tables: Vec<u32> = match table {
            0 => self.tables.keys().copied().collect(),
            t => vec![t],
        };
        tables.sort_unstable();
        let mut out = Vec::new();
        for t in tables {
            let tenants: Vec<u64> = match &wanted {
                Some(q) => vec![q.tenant],
                None => {
                    let mut all: Vec<u64> = self
                        .used
                        .keys()
                        .chain(self.limits.keys())
                        .filter(|(table, _)| *table == t)
                        .map(|(_, tenant)| *tenant)
                        .collect();
                    all.sort_unstable();
                    all.dedup();
                    all
                }
            };
            for tenant in tenants {
                out.push(quota_entity(
                    t,
                    TenantQuota {
                        tenant,
                        limit: self.limit(t, tenant),
                        used: self.used.get(&(t, tenant)).copied().unwrap_or(0),
                    },
                ));
            }
        }
        Ok(out)
    }

    /// The quotas the operator set, as the entities that set them again
    /// around the entries of a snapshot: before them, each at least the
    /// tenant's use (so every entry inserts again); after them, those
    /// the operator set below the use, at their real limit.
    pub(crate) fn written(&self) -> (Vec<p4::Entity>, Vec<p4::Entity>) {
        let mut before = Vec::new();
        let mut after = Vec::new();
        for (&(table, tenant), &limit) in &self.limits {
            let used = self.used.get(&(table, tenant)).copied().unwrap_or(0);
            let quota = |limit| {
                quota_entity(
                    table,
                    TenantQuota {
                        tenant,
                        limit,
                        used: 0,
                    },
                )
            };
            before.push(quota(limit.max(used)));
            if limit < used {
                after.push(quota(limit));
            }
        }
        (before, after)
    }

    /// The quota the operator set for (table, tenant), if any.
    pub(crate) fn set_limit(&self, table: u32, tenant: u64) -> Option<u64> {
        self.limits.get(&(table, tenant)).copied()
    }
}

/// A quota ExternEntry.
pub fn quota_entity(table_id: u32, quota: TenantQuota) -> p4::Entity {
    p4::Entity {
        entity: Some(p4::entity::Entity::ExternEntry(p4::ExternEntry {
            extern_type_id: QUOTA_EXTERN_TYPE,
            extern_id: table_id,
            entry: Some(prost_types::Any {
                type_url: QUOTA_TYPE_URL.into(),
                value: quota.encode_to_vec(),
            }),
        })),
    }
}

/// The tenant quota an entity reports, if it is one: (table, quota).
pub fn quota_of(entity: &p4::Entity) -> Option<(u32, TenantQuota)> {
    match entity.entity.as_ref()? {
        p4::entity::Entity::ExternEntry(e) if e.extern_type_id == QUOTA_EXTERN_TYPE => {
            let any = e.entry.as_ref()?;
            Some((e.extern_id, TenantQuota::decode(any.value.as_slice()).ok()?))
        }
        _ => None,
    }
}
