//! Digests: DigestEntry configs (INSERT, MODIFY, DELETE, read) and the
//! DigestLists the server sends the primary.
//!
//! The server polls the switch's digests (`Target::take_digests`) after
//! every packet that goes through it (injected from the wire or from a
//! PacketOut). A digest whose P4Info digest has a config goes to the
//! primary of the default role as a DigestList of one `P4Data` struct (its
//! fields as canonical bitstrings, unpacked by the widths of the struct the
//! P4Info's `type_info` describes), sent at once: a list of one is within
//! any `max_list_size`, and sending at once within any `max_timeout_ns`.
//! Digests of a digest without a config, or while there is no primary, are
//! dropped.
//!
//! Acknowledgements: with an `ack_timeout_ns` above 0, the same data of the
//! same digest is not sent again while a list holding it waits for its
//! DigestListAck and the timeout has not passed; an ack (digest id and list
//! id) ends the wait. Acks of unknown lists are ignored.
//!
//! Which P4Info digest a switch digest belongs to: the model reports the
//! receiver and the packed bytes only, so the server takes the P4Info
//! digest whose packed length (bytes) is that of the data; a digest whose
//! length several P4Info digests share is dropped (logged).

use crate::codec::{RpcError, invalid};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::translation::Tr;
use janus_engine::target::Target;
use std::collections::{BTreeMap, HashMap};
use tonic::Code;

/// Digest formats, configs and the lists waiting for an ack.
#[derive(Debug, Default)]
pub struct Digests {
    /// Digest id -> each field's width and translated type.
    formats: BTreeMap<u32, Vec<(u32, Option<Tr>)>>,
    configs: BTreeMap<u32, p4::digest_entry::Config>,
    next_list: u64,
    /// (digest id, data) -> (list id, until when it is not resent, µs on
    /// the switch clock).
    waiting: HashMap<(u32, Vec<u8>), (u64, u64)>,
}

impl Digests {
    pub(crate) fn build(info: &cfg::P4Info, translations: &crate::translation::Shared) -> Digests {
        use crate::p4info::DigestField;
        let mut d = Digests::default();
        for x in &info.digests {
            let id = x.preamble.as_ref().map_or(0, |p| p.id);
            let format = crate::p4info::digest_fields(info, x).and_then(|fields| {
                fields
                    .into_iter()
                    .map(|f| match f {
                        DigestField::Bits(w) => Some((w, None)),
                        DigestField::Translated(name) => {
                            let tr = Tr::of(translations, Some(&cfg::P4NamedType { name }))?;
                            Some((tr.dp_width(), Some(tr)))
                        }
                    })
                    .collect::<Option<Vec<_>>>()
            });
            match format {
                Some(format) => {
                    d.formats.insert(id, format);
                }
                None => tracing::warn!(
                    digest = id,
                    "the P4Info does not describe the digest's fields"
                ),
            }
        }
        d
    }

    /// The P4Info digest of packed data of `len` bytes.
    fn digest_of(&self, len: usize) -> Option<u32> {
        let mut it = self
            .formats
            .iter()
            .filter(|(_, f)| (f.iter().map(|(w, _)| w).sum::<u32>() as usize).div_ceil(8) == len);
        match (it.next(), it.next()) {
            (Some((id, _)), None) => Some(*id),
            _ => None,
        }
    }

    /// An acknowledgement from the primary.
    pub(crate) fn ack(&mut self, a: &p4::DigestListAck) {
        self.waiting
            .retain(|(id, _), (list, _)| !(*id == a.digest_id && *list == a.list_id));
    }
}

impl Digests {
    /// A DigestEntry update.
    pub(crate) fn write(
        &mut self,
        kind: p4::update::Type,
        e: &p4::DigestEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        let id = e.digest_id;
        if !self.formats.contains_key(&id) {
            return Err(RpcError::new(
                Code::NotFound,
                format!("no digest with id {id}"),
            ));
        }
        let exists = self.configs.contains_key(&id);
        match kind {
            Type::Insert if exists => Err(RpcError::new(
                Code::AlreadyExists,
                format!("digest {id} is configured already"),
            )),
            Type::Modify | Type::Delete if !exists => Err(RpcError::new(
                Code::NotFound,
                format!("digest {id} is not configured"),
            )),
            Type::Insert | Type::Modify => {
                let c = e
                    .config
                    .ok_or_else(|| invalid(format!("digest {id}: no config")))?;
                if c.max_timeout_ns < 0 || c.max_list_size < 0 || c.ack_timeout_ns < 0 {
                    return Err(invalid(format!("digest {id}: negative config values")));
                }
                self.configs.insert(id, c);
                Ok(())
            }
            Type::Delete => {
                self.configs.remove(&id);
                self.waiting.retain(|(d, _), _| *d != id);
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// The digest configs a read asks for (id 0: every configured digest).
    pub(crate) fn read(&self, f: &p4::DigestEntry) -> Result<Vec<p4::Entity>, RpcError> {
        if f.digest_id != 0 && !self.formats.contains_key(&f.digest_id) {
            return Err(RpcError::new(
                Code::NotFound,
                format!("no digest with id {}", f.digest_id),
            ));
        }
        Ok(self
            .configs
            .iter()
            .filter(|(id, _)| f.digest_id == 0 || **id == f.digest_id)
            .map(|(id, c)| p4::Entity {
                entity: Some(p4::entity::Entity::DigestEntry(p4::DigestEntry {
                    digest_id: *id,
                    config: Some(*c),
                })),
            })
            .collect())
    }

    /// The DigestLists for the digests the switch made since the last
    /// call (see the module comment).
    pub(crate) fn lists(&mut self, switch: &mut dyn Target) -> Vec<p4::DigestList> {
        let (digests, dropped) = switch.take_digests();
        if dropped > 0 {
            tracing::warn!(dropped, "the switch dropped digests (too many waiting)");
        }
        if digests.is_empty() {
            return Vec::new();
        }
        let now_us = switch.now_us();
        let timestamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
        self.waiting.retain(|_, (_, until)| *until > now_us);
        let mut out = Vec::new();
        for (_receiver, data) in digests {
            let Some(id) = self.digest_of(data.len()) else {
                tracing::debug!(
                    len = data.len(),
                    "a digest no P4Info digest matches: dropped"
                );
                continue;
            };
            let Some(config) = self.configs.get(&id) else {
                continue;
            };
            let key = (id, data);
            if self.waiting.contains_key(&key) {
                continue;
            }
            self.next_list += 1;
            let list_id = self.next_list;
            let format = &self.formats[&id];
            let mut at = 0;
            let members = format
                .iter()
                .map(|(w, tr)| {
                    let v = crate::codec::unpack(&key.1, at, *w);
                    at += w;
                    let value = match tr {
                        Some(tr) => tr.to_sdn(&v),
                        None => crate::codec::to_bytes(&v),
                    };
                    p4::P4Data {
                        data: Some(p4::p4_data::Data::Bitstring(value)),
                    }
                })
                .collect();
            if config.ack_timeout_ns > 0 {
                let until = now_us.saturating_add((config.ack_timeout_ns as u64).div_ceil(1000));
                self.waiting.insert(key, (list_id, until));
            }
            out.push(p4::DigestList {
                digest_id: id,
                list_id,
                data: vec![p4::P4Data {
                    data: Some(p4::p4_data::Data::Struct(p4::P4StructLike { members })),
                }],
                timestamp,
            });
        }
        out
    }
}
