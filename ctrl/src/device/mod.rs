//! A committed pipeline as the P4Runtime server sees it: the target
//! running the program, the P4Info the client pushed, and one value per
//! kind of P4Runtime entity holding what the server keeps of it. The
//! device dispatches each update and read to its entity's type
//! ([`crate::counters`], [`crate::meters`], [`crate::profiles`], ...),
//! handing it the parts of the pipeline it needs (the switch, the table
//! maps); what spans entities lives in this module's children: table
//! entries with their direct resources and extra data
//! ([`table_entries`]), translation mappings and what holds their values
//! ([`translations`]), and the device config a client pushes ([`config`]).

mod config;
mod table_entries;
mod translations;

pub use config::compile_device_config;
use config::{data_plane_widths, new_type_widths};

use crate::codec::{RpcError, invalid};
use crate::counters::Counters;
use crate::digests::Digests;
use crate::entry_data::EntryData;
use crate::meters::Meters;
use crate::packet_io::ControllerHeaders;
use crate::profiles::Profiles;
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::quotas::Quotas;
use crate::registers::Registers;
use crate::replication::Replication;
use crate::tables::Tables;
use crate::value_sets::ValueSets;
use janus_engine::target::Target;
use thiserror::Error;
use tonic::Code;

/// Why a device config cannot become a pipeline.
#[derive(Debug, Error)]
pub enum PipelineError {
    #[error("the device config is not a Janus pipeline file or P4 source: {0}")]
    BadDeviceConfig(String),
    #[error("the program does not compile:\n{0}")]
    DoesNotCompile(String),
    #[error("cannot load the program: {0}")]
    Load(#[from] janus_engine::pipeline::LoadError),
    #[error("the P4Info does not match the program: {0}")]
    P4InfoMismatch(String),
    #[error("the program's P4Info and the switch disagree: {0}")]
    Internal(String),
    #[error("the program's tenant annotations are wrong: {0}")]
    TenantPolicy(String),
    #[error("the translation mappings do not fit the program: {0}")]
    Translation(String),
}

impl PipelineError {
    pub fn code(&self) -> Code {
        match self {
            PipelineError::Internal(_) => Code::Internal,
            _ => Code::InvalidArgument,
        }
    }
}

/// A loaded pipeline.
pub struct ForwardingPipeline {
    /// The config as the client set it (P4Info, device config, cookie).
    pub config: p4::ForwardingPipelineConfig,
    pub switch: Box<dyn Target>,
    /// The tables by P4Info id, with their key and action maps.
    pub(crate) tables: Tables,
    /// Counters and direct counters.
    pub(crate) counters: Counters,
    /// Registers.
    pub(crate) registers: Registers,
    /// Multicast groups and clone sessions.
    pub(crate) replication: Replication,
    /// The `packet_in` and `packet_out` controller headers.
    pub(crate) headers: ControllerHeaders,
    /// Meters and direct meters with the configs written.
    pub(crate) meters: Meters,
    /// Action profiles and selectors.
    pub(crate) profiles: Profiles,
    /// Parser value sets.
    pub(crate) value_sets: ValueSets,
    /// Digest configs and the lists sent and not yet acknowledged.
    pub(crate) digests: Digests,
    /// What tenant roles may touch (the program's tenant annotations).
    pub(crate) tenant_policy: crate::roles::TenantPolicy,
    /// Table entries' metadata and idle timeouts.
    pub(crate) entry_data: EntryData,
    /// Tenant quotas of the tables shared between tenants.
    pub(crate) quotas: Quotas,
    /// The mappings of the translated types (`@p4runtime_translation`).
    pub(crate) translations: crate::translation::Shared,
}

impl ForwardingPipeline {
    /// Builds a pipeline from a config: checks the config's P4Info on its
    /// own, compiles the device config, checks that the P4Info describes
    /// the program (by names and shapes, [`crate::p4info_check::check`]),
    /// loads the switch and maps the P4Info's ids. The pipeline then
    /// speaks in the pushed P4Info's ids (its `config` keeps the P4Info as
    /// pushed, for GetForwardingPipelineConfig and the journal); what the
    /// server reads besides ids (widths, sizes, tenant annotations) is the
    /// program's.
    pub fn build(
        config: p4::ForwardingPipelineConfig,
    ) -> Result<ForwardingPipeline, PipelineError> {
        ForwardingPipeline::build_with(config, &crate::translation::TranslationFile::default())
    }

    /// [`ForwardingPipeline::build`], with the operator's translation mappings
    /// (`janus ctrl serve --translations`) pinned before anything else.
    pub fn build_with(
        config: p4::ForwardingPipelineConfig,
        file: &crate::translation::TranslationFile,
    ) -> Result<ForwardingPipeline, PipelineError> {
        let pushed = config
            .p4info
            .as_ref()
            .ok_or_else(|| PipelineError::P4InfoMismatch("the config has no P4Info".into()))?;
        crate::p4info_check::validate(pushed)
            .map_err(|e| PipelineError::P4InfoMismatch(format!("it is not a valid P4Info: {e}")))?;
        let c = compile_device_config(&config.p4_device_config)?;
        let program =
            c.ir.ok_or_else(|| PipelineError::DoesNotCompile("no program".into()))?;
        let own = crate::p4info::to_proto(&janus_p4::p4info::build(&program));
        let mut info = crate::p4info_check::compare(pushed, &own)
            .map_err(PipelineError::P4InfoMismatch)?
            .apply(&own);
        data_plane_widths(&mut info, &program);
        let widths = new_type_widths(&program);
        let mut translations =
            crate::translation::Translations::build(&info, |name| widths.get(name).copied())
                .map_err(PipelineError::P4InfoMismatch)?;
        translations
            .pin_file(file)
            .map_err(PipelineError::Translation)?;
        let switch = janus_targets::load(program)?;
        ForwardingPipeline::map(config, switch, &info, translations)
    }

    /// Maps the P4Info's ids onto the switch's tables, counters, meters,
    /// profiles, digests, controller headers and tenant policy. `info` is
    /// the pushed P4Info as the server uses it: the program's P4Info with
    /// the pushed ids ([`crate::p4info_check::Renumbering::apply`]), so
    /// every id the pipeline answers to or reports is the client's.
    fn map(
        config: p4::ForwardingPipelineConfig,
        switch: Box<dyn Target>,
        info: &cfg::P4Info,
        translations: crate::translation::Translations,
    ) -> Result<ForwardingPipeline, PipelineError> {
        let translations = std::sync::Arc::new(std::sync::Mutex::new(translations));
        let tenant_policy =
            crate::roles::TenantPolicy::from_p4info(info).map_err(PipelineError::TenantPolicy)?;
        let tables =
            Tables::build(info, switch.as_ref(), &translations).map_err(PipelineError::Internal)?;
        let quotas = Quotas::build(info, |t| tenant_policy.tenant_field(t), &tables)
            .map_err(PipelineError::TenantPolicy)?;
        let pushed = config.p4info.as_ref().unwrap_or(info);
        Ok(ForwardingPipeline {
            counters: Counters::build(info, switch.as_ref()),
            registers: Registers::build(info, switch.as_ref()),
            replication: Replication::default(),
            headers: ControllerHeaders::build(info, &translations),
            meters: Meters::build(info),
            profiles: Profiles::build(info, pushed, switch.as_ref()),
            value_sets: ValueSets::build(info, switch.as_ref()),
            digests: Digests::build(info, &translations),
            entry_data: EntryData::default(),
            config,
            switch,
            tables,
            tenant_policy,
            quotas,
            translations,
        })
    }

    /// Applies one update of a Write batch. An update that fails leaves
    /// no trace, translation mappings included.
    pub fn apply(&mut self, update: &p4::Update) -> Result<(), RpcError> {
        let mark = crate::translation::lock(&self.translations).begin();
        let mut result = self.apply_update(update);
        // A translated type found full: take back the values nothing
        // holds any more and try once more. Not inside an all-or-nothing
        // batch, whose rollback could not give back values taken so.
        let (full, nested) = {
            let mut tr = crate::translation::lock(&self.translations);
            (tr.take_exhausted(), tr.nested())
        };
        if let (Err(_), Some(ty), false) = (&result, full, nested)
            && self.reclaim(ty) > 0
        {
            result = self.apply_update(update);
            crate::translation::lock(&self.translations).take_exhausted();
        }
        crate::translation::lock(&self.translations).end(mark, result.is_ok());
        result
    }

    fn apply_update(&mut self, update: &p4::Update) -> Result<(), RpcError> {
        use p4::entity::Entity as E;
        use p4::update::Type;
        let kind = Type::try_from(update.r#type)
            .map_err(|_| invalid(format!("unknown update type {}", update.r#type)))?;
        if kind == Type::Unspecified {
            return Err(invalid("update type UNSPECIFIED"));
        }
        let entity = update
            .entity
            .as_ref()
            .and_then(|e| e.entity.as_ref())
            .ok_or_else(|| invalid("the update has no entity"))?;
        match entity {
            E::TableEntry(te) => self.write_table_entry(kind, te),
            E::CounterEntry(c) => self.counters.write(self.switch.as_mut(), kind, c),
            E::DirectCounterEntry(d) => {
                self.counters
                    .write_direct(self.switch.as_mut(), &self.tables, kind, d)
            }
            E::RegisterEntry(r) => self.registers.write(self.switch.as_mut(), kind, r),
            E::PacketReplicationEngineEntry(p) => {
                self.replication.write(self.switch.as_mut(), kind, p)
            }
            E::MeterEntry(m) => self.meters.write(self.switch.as_mut(), kind, m),
            E::DirectMeterEntry(m) => {
                self.meters
                    .write_direct(self.switch.as_mut(), &self.tables, kind, m)
            }
            E::ActionProfileMember(m) => {
                self.profiles
                    .write_member(self.switch.as_mut(), &self.tables, kind, m)
            }
            E::ActionProfileGroup(g) => {
                self.profiles
                    .write_profile_group(self.switch.as_mut(), kind, g)
            }
            E::ValueSetEntry(v) => self.value_sets.write(self.switch.as_mut(), kind, v),
            E::DigestEntry(d) => self.digests.write(kind, d),
            E::ExternEntry(x)
                if x.extern_type_id == crate::translation::TRANSLATION_EXTERN_TYPE =>
            {
                self.write_translation(kind, x)
            }
            E::ExternEntry(x) => self.quotas.write(&self.tables, kind, x),
        }
    }

    /// The entities a Read request's entity asks for (its wildcards
    /// expanded), in canonical form.
    pub fn read_entity(&self, e: &p4::Entity) -> Result<Vec<p4::Entity>, RpcError> {
        let mut out = Vec::new();
        self.read_entity_each(e, &mut |e| out.push(e))?;
        Ok(out)
    }

    /// [`ForwardingPipeline::read_entity`], each entity handed to `each`;
    /// table entries as they are made, so that a read of many need not
    /// gather them first.
    pub fn read_entity_each(
        &self,
        e: &p4::Entity,
        each: &mut dyn FnMut(p4::Entity),
    ) -> Result<(), RpcError> {
        use p4::entity::Entity as E;
        let all = match &e.entity {
            Some(E::TableEntry(filter)) => {
                return self.read_each(filter, &mut |te| {
                    each(p4::Entity {
                        entity: Some(E::TableEntry(te)),
                    })
                });
            }
            Some(E::CounterEntry(f)) => self.counters.read(self.switch.as_ref(), f)?,
            Some(E::DirectCounterEntry(f)) => self.read_direct_counters(f)?,
            Some(E::RegisterEntry(f)) => self.registers.read(self.switch.as_ref(), f)?,
            Some(E::PacketReplicationEngineEntry(f)) => self.replication.read(f)?,
            Some(E::MeterEntry(f)) => self.meters.read(f)?,
            Some(E::DirectMeterEntry(f)) => self.read_direct_meters(f)?,
            Some(E::ActionProfileMember(f)) => self.profiles.read_members(f)?,
            Some(E::ActionProfileGroup(f)) => self.profiles.read_profile_groups(f)?,
            Some(E::ValueSetEntry(f)) => self.value_sets.read(self.switch.as_ref(), f)?,
            Some(E::DigestEntry(f)) => self.digests.read(f)?,
            Some(E::ExternEntry(f))
                if f.extern_type_id == crate::translation::TRANSLATION_EXTERN_TYPE =>
            {
                self.read_translations(f)?
            }
            Some(E::ExternEntry(f)) if f.extern_type_id == 0 => {
                let mut all = self.quotas.read(&self.tables, f)?;
                all.extend(self.read_translations(f)?);
                all
            }
            Some(E::ExternEntry(f)) => self.quotas.read(&self.tables, f)?,
            None => return Err(invalid("an empty entity")),
        };
        all.into_iter().for_each(each);
        Ok(())
    }

    /// The frame a PacketOut enters the pipeline with
    /// ([`ControllerHeaders::packet_out_frame`]).
    pub fn packet_out_frame(&self, po: &p4::PacketOut) -> Result<Vec<u8>, RpcError> {
        self.headers.packet_out_frame(po)
    }

    /// A packet the pipeline sent to the CPU port as a PacketIn
    /// ([`ControllerHeaders::packet_in`]).
    pub fn packet_in(&self, bytes: &[u8]) -> Option<p4::PacketIn> {
        self.headers.packet_in(bytes)
    }

    /// The DigestLists for the digests the switch made since the last
    /// call ([`Digests::lists`]).
    pub(crate) fn digest_lists(&mut self) -> Vec<p4::DigestList> {
        self.digests.lists(self.switch.as_mut())
    }
}
