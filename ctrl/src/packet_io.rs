//! The controller headers: the `packet_out` header a PacketOut's metadata
//! is packed into before the frame enters the pipeline, and the
//! `packet_in` header a packet sent to the CPU port is unpacked from into
//! a PacketIn's metadata (P4Runtime 1.5 §16.1), each field by its P4Info
//! width, most significant bit first, translated values mapped.

use crate::codec::{RpcError, from_bytes, invalid, pack, to_bytes, unpack};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::translation::{Shared, Tr};
use janus_engine::value::Bits;

/// A controller header's fields: (metadata id, width, translated type),
/// in P4Info order.
pub(crate) type HeaderFormat = Vec<(u32, u32, Option<Tr>)>;

/// The controller headers of a pipeline (none: PacketOut and PacketIn
/// carry the frame as it is, without metadata).
#[derive(Debug, Default)]
pub(crate) struct ControllerHeaders {
    packet_in: Option<HeaderFormat>,
    packet_out: Option<HeaderFormat>,
}

impl ControllerHeaders {
    /// The `packet_in` and `packet_out` headers of `info`.
    pub(crate) fn build(info: &cfg::P4Info, translations: &Shared) -> ControllerHeaders {
        let mut r = ControllerHeaders::default();
        for h in &info.controller_packet_metadata {
            let name = h.preamble.as_ref().map_or("", |p| p.name.as_str());
            let format: HeaderFormat = h
                .metadata
                .iter()
                .map(|m| {
                    let tr = Tr::of(translations, m.type_name.as_ref());
                    (m.id, m.bitwidth.max(0) as u32, tr)
                })
                .collect();
            match name {
                "packet_in" => r.packet_in = Some(format),
                "packet_out" => r.packet_out = Some(format),
                _ => {}
            }
        }
        r
    }

    /// The frame a PacketOut enters the pipeline with: the `packet_out`
    /// header (its metadata packed by width, in P4Info order) and the
    /// payload. Metadata that does not match the P4Info is
    /// INVALID_ARGUMENT.
    pub(crate) fn packet_out_frame(&self, po: &p4::PacketOut) -> Result<Vec<u8>, RpcError> {
        let Some(format) = &self.packet_out else {
            if po.metadata.is_empty() {
                return Ok(po.payload.clone());
            }
            return Err(invalid(
                "the pipeline has no packet_out controller header: a PacketOut carries no metadata",
            ));
        };
        let mut values: Vec<Option<Bits>> = vec![None; format.len()];
        for m in &po.metadata {
            let pos = format
                .iter()
                .position(|(id, _, _)| *id == m.metadata_id)
                .ok_or_else(|| {
                    invalid(format!("packet_out: no metadata with id {}", m.metadata_id))
                })?;
            if values[pos].is_some() {
                return Err(invalid(format!(
                    "packet_out: metadata {} given twice",
                    m.metadata_id
                )));
            }
            let what = format!("packet_out metadata {}", m.metadata_id);
            // A translated value is looked up, not allocated: a PacketOut
            // is not journaled.
            let value = match &format[pos].2 {
                Some(tr) => tr.to_dp(&m.value, false, &what),
                None => from_bytes(&m.value, format[pos].1, false, &what),
            };
            values[pos] = Some(value.map_err(|e| invalid(e.message))?);
        }
        let mut fields = Vec::with_capacity(format.len());
        for ((id, width, _), v) in format.iter().zip(values) {
            let v = v.ok_or_else(|| invalid(format!("packet_out: metadata {id} is missing")))?;
            fields.push((*width, v));
        }
        let mut frame = pack(&fields);
        frame.extend_from_slice(&po.payload);
        Ok(frame)
    }

    /// A packet the pipeline sent to the CPU port as a PacketIn: the
    /// `packet_in` header's fields as metadata, the rest as payload.
    /// `None` when the packet is shorter than the header.
    pub(crate) fn packet_in(&self, bytes: &[u8]) -> Option<p4::PacketIn> {
        let Some(format) = &self.packet_in else {
            return Some(p4::PacketIn {
                payload: bytes.to_vec(),
                metadata: Vec::new(),
            });
        };
        let bits: u32 = format.iter().map(|(_, w, _)| w).sum();
        let len = bits.div_ceil(8) as usize;
        if bytes.len() < len {
            return None;
        }
        let mut at = 0;
        let metadata = format
            .iter()
            .map(|(id, width, tr)| {
                let v = unpack(&bytes[..len], at, *width);
                at += width;
                p4::PacketMetadata {
                    metadata_id: *id,
                    value: match tr {
                        Some(tr) => tr.to_sdn(&v),
                        None => to_bytes(&v),
                    },
                }
            })
            .collect();
        Some(p4::PacketIn {
            payload: bytes[len..].to_vec(),
            metadata,
        })
    }
}
