//! The commands' use of [`janus_ctrl::client`]: its errors as exit codes,
//! the P4Info as a [`Schema`], arbitration that must end primary, and
//! batches whose failed updates are listed by the operator's words.

use super::ClientError;
use janus_ctrl::client::schema::Schema;
use janus_ctrl::client::{self, Client};
use janus_ctrl::proto::p4::v1 as p4;
use p4::get_forwarding_pipeline_config_request::ResponseType;
use p4::write_request::Atomicity;

/// The address `--server` defaults to (P4Runtime's registered port).
pub const DEFAULT_SERVER: &str = "127.0.0.1:9559";

/// The election id `--election-id` defaults to: 2^32, above the small ids
/// controllers usually start from, so that the command line can write
/// while a controller is connected. As P4Runtime keeps the highest id
/// seen, a controller must then use an id at least this high to become
/// primary again.
pub const DEFAULT_ELECTION_ID: u64 = 1 << 32;

impl From<client::Error> for ClientError {
    fn from(e: client::Error) -> ClientError {
        match e {
            client::Error::Usage(text) => ClientError::Usage(text),
            other => ClientError::Server(other.to_string()),
        }
    }
}

/// The committed pipeline's P4Info.
pub async fn schema(client: &mut Client) -> Result<Schema, ClientError> {
    client
        .get_pipeline_config(ResponseType::P4infoAndCookie)
        .await?
        .p4info
        .map(Schema::new)
        .ok_or_else(|| ClientError::Server("the server sent no P4Info".into()))
}

/// Arbitrates with the configured election id; an error unless the client
/// becomes primary.
pub async fn become_primary(client: &mut Client) -> Result<(), ClientError> {
    Ok(client.ensure_primary().await?)
}

/// Writes `updates` in one batch (needs [`become_primary`]); `labels[i]`
/// names update `i` in the error, which lists every update that failed
/// with its code and the server's message.
pub async fn write(
    client: &mut Client,
    updates: Vec<p4::Update>,
    labels: &[String],
) -> Result<(), ClientError> {
    let count = updates.len();
    let e = match client.write(updates, Atomicity::ContinueOnError).await {
        Ok(()) => return Ok(()),
        Err(e) => e,
    };
    let failed: Vec<&client::UpdateStatus> = e.failed_updates().collect();
    if failed.is_empty() {
        return Err(e.into());
    }
    let reported = e.reported_updates();
    let mut text = if reported < count {
        format!(
            "{} of the first {reported} of {count} updates failed; the server reported the rest in summary: {}",
            failed.len(),
            e.status_message().unwrap_or_default()
        )
    } else {
        format!(
            "{} of {count} updates failed (the others were applied):",
            failed.len()
        )
    };
    for u in failed {
        let label = labels.get(u.index).map_or("", String::as_str);
        text.push_str(&format!(
            "\n  update {} ({label}): {:?}: {}",
            u.index + 1,
            u.code,
            u.message
        ));
    }
    Err(ClientError::Server(text))
}
