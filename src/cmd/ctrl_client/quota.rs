//! `janus ctrl quota show|set|reset`: tenant quotas of the tables shared
//! between tenants, read and written over P4Runtime as Janus's
//! `ExternEntry` of type 0xC0 (see docs/control-plane.md, "Tenant quotas").

use super::{ClientError, ConnectArgs, session};
use clap::Subcommand;
use janus_ctrl::client::schema;
use janus_ctrl::proto::janus::TenantQuota;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::quotas::{QUOTA_EXTERN_TYPE, quota_entity, quota_of};

#[derive(Subcommand)]
pub enum QuotaCommand {
    /// Print each tenant's quota and use: of one table, or of every tenant
    /// table; of one tenant, or of every tenant holding entries or with a
    /// quota set.
    Show {
        /// The table (full name, alias or unique suffix).
        #[arg(long, value_name = "TABLE")]
        table: Option<String>,
        /// The tenant.
        #[arg(long, value_name = "ID")]
        tenant: Option<u64>,
        #[command(flatten)]
        connect: ConnectArgs,
    },
    /// Set a tenant's quota of a table (entries it may hold).
    Set {
        /// The table.
        table: String,
        /// The tenant.
        #[arg(long, value_name = "ID")]
        tenant: u64,
        /// The entries it may hold.
        #[arg(long, value_name = "N")]
        limit: u64,
        #[command(flatten)]
        connect: ConnectArgs,
    },
    /// Put a tenant's quota of a table back to the table's default share.
    Reset {
        /// The table.
        table: String,
        /// The tenant.
        #[arg(long, value_name = "ID")]
        tenant: u64,
        #[command(flatten)]
        connect: ConnectArgs,
    },
}

pub async fn run(c: QuotaCommand) -> Result<(), ClientError> {
    match c {
        QuotaCommand::Show {
            table,
            tenant,
            connect,
        } => {
            let mut client = connect.connect().await?;
            let schema = session::schema(&mut client).await?;
            let table_id = match &table {
                Some(t) => schema::id_of(schema.table(t)?.preamble.as_ref()),
                None => 0,
            };
            let filter = p4::ExternEntry {
                extern_type_id: QUOTA_EXTERN_TYPE,
                extern_id: table_id,
                entry: None,
            };
            let read = client.read(vec![quota_filter(filter, tenant)]).await?;
            let mut rows: Vec<(String, u64, u64, u64)> = read
                .iter()
                .filter_map(quota_of)
                .map(|(t, q)| (schema.table_name(t), q.tenant, q.used, q.limit))
                .collect();
            rows.sort();
            if rows.is_empty() {
                println!("no tenant holds entries or has a quota set");
            }
            for (t, tenant, used, limit) in rows {
                println!("{t}: tenant {tenant}: {used} of {limit} entries");
            }
            Ok(())
        }
        QuotaCommand::Set {
            table,
            tenant,
            limit,
            connect,
        } => write(&connect, &table, tenant, Some(limit)).await,
        QuotaCommand::Reset {
            table,
            tenant,
            connect,
        } => write(&connect, &table, tenant, None).await,
    }
}

/// The read filter: `tenant` names one tenant (all without it).
fn quota_filter(mut e: p4::ExternEntry, tenant: Option<u64>) -> p4::Entity {
    if let Some(tenant) = tenant {
        let one = quota_entity(
            e.extern_id,
            TenantQuota {
                tenant,
                limit: 0,
                used: 0,
            },
        );
        if let Some(p4::entity::Entity::ExternEntry(x)) = one.entity {
            e.entry = x.entry;
        }
    }
    p4::Entity {
        entity: Some(p4::entity::Entity::ExternEntry(e)),
    }
}

/// Sets (`Some(limit)`) or resets the quota of `tenant` in `table`.
async fn write(
    connect: &ConnectArgs,
    table: &str,
    tenant: u64,
    limit: Option<u64>,
) -> Result<(), ClientError> {
    let mut client = connect.connect().await?;
    let schema = session::schema(&mut client).await?;
    let table_id = schema::id_of(schema.table(table)?.preamble.as_ref());
    let entity = quota_entity(
        table_id,
        TenantQuota {
            tenant,
            limit: limit.unwrap_or(0),
            used: 0,
        },
    );
    let kind = match limit {
        Some(_) => p4::update::Type::Modify,
        None => p4::update::Type::Delete,
    };
    session::become_primary(&mut client).await?;
    let name = schema.table_name(table_id);
    session::write(
        &mut client,
        vec![p4::Update {
            r#type: kind as i32,
            entity: Some(entity),
        }],
        &[format!("{name} tenant {tenant}")],
    )
    .await?;
    match limit {
        Some(n) => println!("{name}: tenant {tenant} may hold {n} entries"),
        None => println!("{name}: tenant {tenant} is back to the default share"),
    }
    Ok(())
}
