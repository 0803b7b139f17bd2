//! What the primary of a role may do: [`Access`].
//!
//! Three kinds of role (P4Runtime 1.5 §5, and Stratum's role config):
//!
//! - the **default role** (empty name) and a named role without a config:
//!   [`Access::Full`], everything;
//! - a named role whose arbitration carries a `stratum.P4RoleConfig`:
//!   [`Access::Configured`], writes to the P4 ids it lists (exclusive or
//!   shared; an id another role holds exclusively is refused), reads of
//!   those ids only, PacketIns if `receives_packet_ins` (and the filter
//!   matches), SetForwardingPipelineConfig if `can_push_pipeline`;
//! - a **tenant role** `tenant:<id>`, the only role a tenant certificate may
//!   use: [`Access::Tenant`], whose rights come from the pipeline, not from
//!   the client ([`TenantPolicy`]): entries of the tables the program marks
//!   `@janus_tenant_key("<match field>")` whose key field equals the
//!   tenant's id (exact), reads of those entries and of their direct
//!   counters and meters, and reads of the counters and meters marked
//!   `@janus_tenant_index` at the tenant's own index. Never the pipeline,
//!   packet I/O, or anything else.

use crate::codec::RpcError;
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::proto::stratum::P4RoleConfig;
use prost::Message;
use std::collections::{BTreeMap, BTreeSet};
use tonic::Code;

/// The type URL suffix of a role config Janus understands.
pub const ROLE_CONFIG_TYPE: &str = "stratum.P4RoleConfig";

/// The annotation marking a tenant-scoped table; its argument names the
/// match field that holds the tenant id.
pub const TENANT_KEY_ANNOTATION: &str = "@janus_tenant_key";

/// The annotation marking a counter or meter indexed by tenant id.
pub const TENANT_INDEX_ANNOTATION: &str = "@janus_tenant_index";

/// A role's rights.
#[derive(Clone, Debug, PartialEq)]
pub enum Access {
    Full,
    Configured(RoleConfig),
    Tenant(u64),
}

/// A decoded `stratum.P4RoleConfig`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoleConfig {
    pub exclusive: BTreeSet<u32>,
    pub shared: BTreeSet<u32>,
    pub packet_in_filter: Option<(u32, Vec<u8>)>,
    pub receives_packet_ins: bool,
    pub can_push_pipeline: bool,
}

impl RoleConfig {
    /// Decodes a role config from an arbitration's `Role.config`.
    pub fn from_any(any: &prost_types::Any) -> Result<RoleConfig, RpcError> {
        let type_name = any.type_url.rsplit('/').next().unwrap_or_default();
        if type_name != ROLE_CONFIG_TYPE {
            return Err(RpcError::new(
                Code::InvalidArgument,
                format!(
                    "role config of type {:?}: only {ROLE_CONFIG_TYPE} is understood",
                    any.type_url
                ),
            ));
        }
        let c = P4RoleConfig::decode(any.value.as_slice()).map_err(|e| {
            RpcError::new(
                Code::InvalidArgument,
                format!("the role config does not decode: {e}"),
            )
        })?;
        Ok(RoleConfig {
            exclusive: c.exclusive_p4_ids.into_iter().collect(),
            shared: c.shared_p4_ids.into_iter().collect(),
            packet_in_filter: c.packet_in_filter.map(|f| (f.metadata_id, f.value)),
            receives_packet_ins: c.receives_packet_ins,
            can_push_pipeline: c.can_push_pipeline,
        })
    }

    fn covers(&self, id: u32) -> bool {
        self.exclusive.contains(&id) || self.shared.contains(&id)
    }
}

/// A table whose entries belong to tenants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TenantKey {
    field_id: u32,
}

/// Which P4 objects of the committed pipeline tenants may touch, from its
/// P4Info's annotations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TenantPolicy {
    tables: BTreeMap<u32, TenantKey>,
    /// Counters, meters (and their direct forms' tables are in `tables`)
    /// indexed by tenant id.
    indexed: BTreeSet<u32>,
}

impl TenantPolicy {
    /// Reads the `@janus_tenant_key` and `@janus_tenant_index` annotations.
    /// A key annotation naming no match field of its table is an error (the
    /// pipeline is refused), so a typo cannot silently lock tenants out or
    /// in.
    pub fn from_p4info(info: &cfg::P4Info) -> Result<TenantPolicy, String> {
        let mut policy = TenantPolicy::default();
        for t in &info.tables {
            let Some(pre) = &t.preamble else { continue };
            let Some(field) = annotation_argument(&pre.annotations, TENANT_KEY_ANNOTATION) else {
                continue;
            };
            let f = t
                .match_fields
                .iter()
                .find(|f| f.name == field)
                .ok_or_else(|| {
                    format!(
                        "table {}: {TENANT_KEY_ANNOTATION}({field:?}) names no match field",
                        pre.name
                    )
                })?;
            policy.tables.insert(pre.id, TenantKey { field_id: f.id });
        }
        let indexed = info
            .counters
            .iter()
            .filter_map(|c| c.preamble.as_ref())
            .chain(info.meters.iter().filter_map(|m| m.preamble.as_ref()));
        for pre in indexed {
            if pre
                .annotations
                .iter()
                .any(|a| a == TENANT_INDEX_ANNOTATION || a.starts_with("@janus_tenant_index("))
            {
                policy.indexed.insert(pre.id);
            }
        }
        Ok(policy)
    }

    /// The match field holding the tenant id of tenant table `table_id`.
    pub fn tenant_field(&self, table_id: u32) -> Option<u32> {
        self.tables.get(&table_id).map(|k| k.field_id)
    }

    /// Whether `te` is an entry of a tenant table keyed with `tenant`.
    fn owns_entry(&self, tenant: u64, te: &p4::TableEntry) -> bool {
        let Some(key) = self.tables.get(&te.table_id) else {
            return false;
        };
        if te.is_default_action {
            return false;
        }
        te.r#match.iter().any(|m| {
            m.field_id == key.field_id
                && matches!(&m.field_match_type,
                    Some(p4::field_match::FieldMatchType::Exact(e)) if bytes_equal_number(&e.value, tenant))
        })
    }

    fn owns_index(&self, tenant: u64, id: u32, index: Option<&p4::Index>) -> bool {
        self.indexed.contains(&id)
            && index.is_some_and(|i| i.index >= 0 && i.index as u64 == tenant)
    }
}

/// The argument of `@name("arg")` / `@name(arg)` among `annotations`.
fn annotation_argument(annotations: &[String], name: &str) -> Option<String> {
    annotations.iter().find_map(|a| {
        let inner = a.strip_prefix(name)?.strip_prefix('(')?.strip_suffix(')')?;
        Some(inner.trim().trim_matches('"').to_owned())
    })
}

/// Whether big-endian `bytes` hold the number `n` (leading zeros allowed).
fn bytes_equal_number(bytes: &[u8], n: u64) -> bool {
    let significant: &[u8] = {
        let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
        &bytes[first..]
    };
    if significant.len() > 8 || bytes.is_empty() {
        return false;
    }
    significant
        .iter()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
        == n
}

/// The P4 id an entity is about (for direct resources: their table's), or
/// `None` for entities without one (packet replication engine entries).
pub fn entity_p4_id(entity: &p4::Entity) -> Option<u32> {
    use p4::entity::Entity as E;
    Some(match entity.entity.as_ref()? {
        E::TableEntry(t) => t.table_id,
        E::ActionProfileMember(m) => m.action_profile_id,
        E::ActionProfileGroup(g) => g.action_profile_id,
        E::MeterEntry(m) => m.meter_id,
        E::DirectMeterEntry(d) => d.table_entry.as_ref()?.table_id,
        E::CounterEntry(c) => c.counter_id,
        E::DirectCounterEntry(d) => d.table_entry.as_ref()?.table_id,
        E::RegisterEntry(r) => r.register_id,
        E::ValueSetEntry(v) => v.value_set_id,
        E::DigestEntry(d) => d.digest_id,
        _ => return None,
    })
}

fn denied(message: String) -> RpcError {
    RpcError::new(Code::PermissionDenied, message)
}

impl Access {
    /// The access a role gets: tenant roles from the pipeline, named roles
    /// from their config, the rest full.
    pub fn for_role(role: &str, config: Option<&prost_types::Any>) -> Result<Access, RpcError> {
        if let Some(tenant) = crate::auth::role_tenant(role) {
            if config.is_some() {
                return Err(denied(format!(
                    "role {role}: a tenant role's rights are set by the pipeline, not by a role config"
                )));
            }
            return Ok(Access::Tenant(tenant));
        }
        match config {
            Some(any) if !role.is_empty() => Ok(Access::Configured(RoleConfig::from_any(any)?)),
            Some(_) => Err(RpcError::new(
                Code::InvalidArgument,
                "the default role takes no role config",
            )),
            None => Ok(Access::Full),
        }
    }

    pub fn may_push_pipeline(&self) -> bool {
        match self {
            Access::Full => true,
            Access::Configured(c) => c.can_push_pipeline,
            Access::Tenant(_) => false,
        }
    }

    /// Whether the role's primary may send PacketOuts.
    pub fn may_send_packets(&self) -> bool {
        !matches!(self, Access::Tenant(_))
    }

    /// Whether a PacketIn with `metadata` goes to the role's primary.
    pub fn receives_packet_in(&self, metadata: &[p4::PacketMetadata]) -> bool {
        match self {
            Access::Full => true,
            Access::Tenant(_) => false,
            Access::Configured(c) if !c.receives_packet_ins => false,
            Access::Configured(c) => match &c.packet_in_filter {
                None => true,
                Some((id, value)) => metadata
                    .iter()
                    .any(|m| m.metadata_id == *id && m.value == *value),
            },
        }
    }

    /// Whether the role may make `update`; `exclusive_elsewhere` are the ids
    /// other roles hold exclusively.
    pub fn check_write(
        &self,
        policy: &TenantPolicy,
        exclusive_elsewhere: &BTreeSet<u32>,
        update: &p4::Update,
    ) -> Result<(), RpcError> {
        let Some(entity) = update.entity.as_ref() else {
            // The update's own checks report the missing entity.
            return Ok(());
        };
        match self {
            Access::Full => Ok(()),
            Access::Configured(c) => match entity_p4_id(entity) {
                Some(id) if c.covers(id) && !exclusive_elsewhere.contains(&id) => Ok(()),
                Some(id) if c.covers(id) => Err(denied(format!(
                    "P4 id {id} belongs exclusively to another role"
                ))),
                Some(id) => Err(denied(format!(
                    "the role's config does not cover P4 id {id}"
                ))),
                None => Err(denied(
                    "only the default role may write packet replication engine entries and tenant quotas"
                        .into(),
                )),
            },
            Access::Tenant(tenant) => match &entity.entity {
                Some(p4::entity::Entity::TableEntry(te)) if policy.owns_entry(*tenant, te) => {
                    Ok(())
                }
                Some(p4::entity::Entity::TableEntry(te))
                    if policy.tables.contains_key(&te.table_id) =>
                {
                    Err(denied(format!(
                        "tenant {tenant} may only write entries keyed with its own tenant id"
                    )))
                }
                _ => Err(denied(format!(
                    "tenant {tenant} may only write entries of its own tenant tables"
                ))),
            },
        }
    }

    /// Whether the role may see `entity` in a Read (requests outside the
    /// role are filtered out of wildcard reads).
    pub fn may_read(&self, policy: &TenantPolicy, entity: &p4::Entity) -> bool {
        use p4::entity::Entity as E;
        match self {
            Access::Full => true,
            Access::Configured(c) => entity_p4_id(entity).is_some_and(|id| c.covers(id)),
            Access::Tenant(t) => match &entity.entity {
                Some(E::TableEntry(te)) => policy.owns_entry(*t, te),
                Some(E::DirectCounterEntry(d)) => d
                    .table_entry
                    .as_ref()
                    .is_some_and(|te| policy.owns_entry(*t, te)),
                Some(E::DirectMeterEntry(d)) => d
                    .table_entry
                    .as_ref()
                    .is_some_and(|te| policy.owns_entry(*t, te)),
                Some(E::CounterEntry(c)) => policy.owns_index(*t, c.counter_id, c.index.as_ref()),
                Some(E::MeterEntry(m)) => policy.owns_index(*t, m.meter_id, m.index.as_ref()),
                Some(E::ExternEntry(_)) => {
                    crate::quotas::quota_of(entity).is_some_and(|(_, q)| q.tenant == *t)
                }
                _ => false,
            },
        }
    }

    /// The P4 ids this role holds exclusively.
    pub fn exclusive_ids(&self) -> Option<&BTreeSet<u32>> {
        match self {
            Access::Configured(c) => Some(&c.exclusive),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(field_id: u32, value: &[u8]) -> p4::FieldMatch {
        p4::FieldMatch {
            field_id,
            field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                p4::field_match::Exact {
                    value: value.to_vec(),
                },
            )),
        }
    }

    fn policy() -> TenantPolicy {
        let mut p = TenantPolicy::default();
        p.tables.insert(10, TenantKey { field_id: 1 });
        p.indexed.insert(20);
        p
    }

    fn insert(te: p4::TableEntry) -> p4::Update {
        p4::Update {
            r#type: p4::update::Type::Insert as i32,
            entity: Some(p4::Entity {
                entity: Some(p4::entity::Entity::TableEntry(te)),
            }),
        }
    }

    #[test]
    fn tenants_write_only_entries_with_their_key() {
        let p = policy();
        let own = p4::TableEntry {
            table_id: 10,
            r#match: vec![exact(1, &[0, 7]), exact(2, &[9])],
            ..Default::default()
        };
        let other = p4::TableEntry {
            r#match: vec![exact(1, &[8])],
            ..own.clone()
        };
        let t7 = Access::Tenant(7);
        let none = BTreeSet::new();
        assert!(t7.check_write(&p, &none, &insert(own.clone())).is_ok());
        let e = t7.check_write(&p, &none, &insert(other)).unwrap_err();
        assert_eq!(e.code, Code::PermissionDenied);
        let default = p4::TableEntry {
            is_default_action: true,
            r#match: vec![],
            ..own.clone()
        };
        assert!(t7.check_write(&p, &none, &insert(default)).is_err());
        let foreign_table = p4::TableEntry {
            table_id: 11,
            ..own
        };
        assert!(t7.check_write(&p, &none, &insert(foreign_table)).is_err());
    }

    #[test]
    fn tenants_read_their_own_counter_index_only() {
        let p = policy();
        let counter = |id, index| p4::Entity {
            entity: Some(p4::entity::Entity::CounterEntry(p4::CounterEntry {
                counter_id: id,
                index: Some(p4::Index { index }),
                data: None,
            })),
        };
        assert!(Access::Tenant(3).may_read(&p, &counter(20, 3)));
        assert!(!Access::Tenant(3).may_read(&p, &counter(20, 4)));
        assert!(!Access::Tenant(3).may_read(&p, &counter(21, 3)));
        assert!(Access::Full.may_read(&p, &counter(21, 3)));
    }

    #[test]
    fn configured_roles_write_their_ids_unless_held_exclusively_elsewhere() {
        let c = Access::Configured(RoleConfig {
            shared: [10].into(),
            exclusive: [12].into(),
            ..Default::default()
        });
        let te = |id| p4::TableEntry {
            table_id: id,
            ..Default::default()
        };
        let none = BTreeSet::new();
        assert!(c.check_write(&policy(), &none, &insert(te(10))).is_ok());
        assert!(c.check_write(&policy(), &none, &insert(te(12))).is_ok());
        assert!(c.check_write(&policy(), &none, &insert(te(11))).is_err());
        assert!(
            c.check_write(&policy(), &[10].into(), &insert(te(10)))
                .is_err()
        );
    }

    #[test]
    fn numbers_in_bytes() {
        assert!(bytes_equal_number(&[0, 0, 7], 7));
        assert!(bytes_equal_number(&[0], 0));
        assert!(!bytes_equal_number(&[], 0));
        assert!(!bytes_equal_number(&[1, 0, 0, 0, 0, 0, 0, 0, 7], 7));
    }

    #[test]
    fn role_configs_decode_and_tenant_roles_refuse_them() {
        let any = prost_types::Any {
            type_url: "type.googleapis.com/stratum.P4RoleConfig".into(),
            value: P4RoleConfig {
                shared_p4_ids: vec![5],
                receives_packet_ins: true,
                ..Default::default()
            }
            .encode_to_vec(),
        };
        let a = Access::for_role("app", Some(&any)).unwrap();
        assert!(
            matches!(&a, Access::Configured(c) if c.shared.contains(&5) && c.receives_packet_ins)
        );
        assert!(Access::for_role("tenant:3", Some(&any)).is_err());
        assert_eq!(
            Access::for_role("tenant:3", None).unwrap(),
            Access::Tenant(3)
        );
        assert_eq!(Access::for_role("", None).unwrap(), Access::Full);
        let wrong = prost_types::Any {
            type_url: "type.googleapis.com/other.Config".into(),
            value: vec![],
        };
        assert_eq!(
            Access::for_role("app", Some(&wrong)).unwrap_err().code,
            Code::InvalidArgument
        );
    }
}
