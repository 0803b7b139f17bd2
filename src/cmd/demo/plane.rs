//! The demo's control plane: the P4Runtime server in this process and the
//! demo's client of it, which pushes the pipeline and writes the tenants
//! and the entries file.

use super::*;

// ---------------------------------------------------------------------------
// The control plane: a P4Runtime server in this process, driven over gRPC
// ---------------------------------------------------------------------------

/// The counters the demo reads after the run (and requires of the program).
pub(super) const COUNTERS: [&str; 6] = [
    "SdnIngress.drops",
    "SdnEgress.drops",
    "SdnIngress.tenant_packets",
    "SdnIngress.vf_rx",
    "SdnEgress.vf_tx",
    "SdnIngress.vf_drops",
];

/// The tenants as `janus ctrl tenant add` takes them; their entries come
/// from [`TenantSpec::entries`], the mapping the command line uses.
pub(super) fn tenant_specs() -> [TenantSpec; 2] {
    let vf = |port, mac, ip: Ip4| Vf {
        port,
        mac,
        ipv4: ip.into(),
    };
    let tenant = |t: &Tenant, gw: (Mac, Ip4, [u16; 8]), vfs, tunnel: (u32, Ip4), remote: Mac| {
        let uplink = tunnel.0 - 1;
        TenantSpec {
            id: t.id as u32,
            vni: t.vni,
            gateway: Some(Gateway {
                mac: gw.0,
                ipv4: gw.1.into(),
                ipv6: gw.2.into(),
            }),
            vfs,
            tunnels: vec![Tunnel {
                id: tunnel.0,
                remote_vtep: tunnel.1.into(),
                underlay_mac: TOR_MAC[uplink as usize],
                uplink,
            }],
            remotes: vec![Remote {
                prefix: [10, t.id as u8, 8, 0].into(),
                len: 24,
                tunnel: tunnel.0,
                next_mac: remote,
            }],
        }
    };
    [
        tenant(
            &TENANT_A,
            (A_GW_MAC, A_GW_IP, [0xfd01, 0, 0, 0, 0, 0, 0, 1]),
            vec![vf(2, VF2_MAC, VF2_IP), vf(3, VF3_MAC, VF3_IP)],
            (1, VTEP_A),
            A_REMOTE_MAC,
        ),
        tenant(
            &TENANT_B,
            (B_GW_MAC, B_GW_IP, [0xfd02, 0, 0, 0, 0, 0, 0, 1]),
            vec![vf(4, VF4_MAC, VF4_IP), vf(5, VF5_MAC, VF5_IP)],
            (2, VTEP_B),
            B_REMOTE_MAC,
        ),
    ]
}

/// The compiled program as a pipeline config: its pipeline file and P4Info.
pub(super) fn pipeline_config(c: &Compilation) -> Result<p4::ForwardingPipelineConfig, String> {
    let program = c
        .program()
        .ok_or_else(|| format!("{PROGRAM_PATH} does not compile"))?;
    Ok(p4::ForwardingPipelineConfig {
        p4info: Some(janus_ctrl::p4info::to_proto(&janus_p4::p4info::build(
            program,
        ))),
        p4_device_config: janus_p4::pipeline::Pipeline::from_compilation(c).to_bytes(),
        cookie: None,
    })
}

/// Runs `f` on the server's switch.
pub(super) fn on_switch<R>(
    h: &SwitchHandle,
    f: impl FnOnce(&mut dyn Target) -> R,
) -> Result<R, String> {
    h.with_switch(|sw| sw.map(f))
        .ok_or_else(|| "the P4Runtime server has no pipeline".to_string())
}

/// How many entries [`Plane::configure`] wrote.
pub(super) struct Written {
    /// Through the tenant mapping.
    pub(super) tenants: usize,
    /// The entries file's other lines.
    pub(super) others: usize,
}

/// The P4Runtime server (in this process) and the demo's client of it,
/// primary.
pub(super) struct Plane {
    pub(super) addr: std::net::SocketAddr,
    pub(super) switch: SwitchHandle,
    pub(super) client: Client,
    pub(super) schema: Schema,
    /// Stops the server when dropped.
    pub(super) _stop: tokio::sync::oneshot::Sender<()>,
}

impl Plane {
    /// Starts the server on 127.0.0.1:0, connects, becomes primary and
    /// pushes `config`.
    pub(super) async fn start(config: p4::ForwardingPipelineConfig) -> Result<Plane, String> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let service = P4RuntimeService::new(1);
        let switch = service.switch_handle();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let shutdown = async {
                let _ = stopped.await;
            };
            if let Err(e) = serve(service, listener, shutdown).await {
                tracing::error!("the demo's P4Runtime server stopped: {e}");
            }
        });
        let mut client = Client::connect(ClientConfig::new(addr.to_string()))
            .await
            .map_err(|e| e.to_string())?;
        session::become_primary(&mut client)
            .await
            .map_err(|e| e.to_string())?;
        client
            .set_pipeline(
                p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit,
                config,
            )
            .await
            .map_err(|e| e.to_string())?;
        let schema = session::schema(&mut client)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Plane {
            addr,
            switch,
            client,
            schema,
            _stop: stop,
        })
    }

    /// Writes the tenants' entries (the tenant mapping) and then the
    /// entries file's other lines. The file also holds the tenants' entries
    /// (`janus sim run --entries` replays the demo from it): they must be
    /// exactly the mapping's, or the demo stops.
    pub(super) async fn configure(&mut self) -> Result<Written, String> {
        let tenants: Vec<EntrySpec> = tenant_specs().iter().flat_map(|t| t.entries()).collect();
        let file =
            EntrySpec::from_entries_file(ENTRIES, ENTRIES_PATH).map_err(|e| e.to_string())?;
        let resolve = |s: &EntrySpec| {
            s.resolve(&self.schema)
                .map_err(|e| format!("{}: {e}", s.label()))
        };
        let mapped = tenants.iter().map(resolve).collect::<Result<Vec<_>, _>>()?;
        let mut found = vec![false; mapped.len()];
        let mut others = Vec::new();
        for spec in &file {
            let e = resolve(spec)?;
            let same_key = |m: &p4::TableEntry| {
                m.table_id == e.table_id && m.r#match == e.r#match && m.priority == e.priority
            };
            match mapped.iter().position(same_key) {
                Some(i) if mapped[i].action == e.action => found[i] = true,
                Some(_) => {
                    return Err(format!(
                        "{ENTRIES_PATH}: `{}` has another action than the tenant's entry",
                        spec.label()
                    ));
                }
                None => others.push(spec.clone()),
            }
        }
        if let Some(i) = found.iter().position(|f| !f) {
            return Err(format!(
                "{ENTRIES_PATH} lacks the tenant entry `{}`",
                tenants[i].label()
            ));
        }
        let client = &mut self.client;
        let tenants = insert_entries(client, &self.schema, &tenants)
            .await
            .map_err(|e| e.to_string())?;
        let others = insert_entries(client, &self.schema, &others)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Written { tenants, others })
    }

    /// Every cell of [`COUNTERS`], read over P4Runtime: name -> index ->
    /// (packets, bytes).
    pub(super) async fn counters(
        &mut self,
    ) -> Result<BTreeMap<&'static str, BTreeMap<usize, (u64, u64)>>, String> {
        let mut out = BTreeMap::new();
        for name in COUNTERS {
            let cells = read_counter(&mut self.client, &self.schema, name, None)
                .await
                .map_err(|e| e.to_string())?;
            out.insert(
                name,
                cells
                    .into_iter()
                    .map(|(i, p, b)| (i as usize, (p as u64, b as u64)))
                    .collect(),
            );
        }
        Ok(out)
    }
}
