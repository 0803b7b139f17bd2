//! The scenarios over the real topology: real `ping`, a tenant's attempt
//! at the management address, P4Runtime clients on the management
//! network, `iperf3`, and the counters read back over P4Runtime. Each is
//! printed with its expected and observed fate (report.rs), and with the
//! NIC's drops during it, by reason (read over P4Runtime).

use super::RealError;
use super::guard::{Daemon, Finished, run_bounded};
use super::needs::Tools;
use super::operator::{Cells, Operator};
use super::report::{Expect, Fate, Report};
use super::topology::{A1, A2, B1, TENANTS, Topology, Vm};
use crate::cmd::program_codes::Codes;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long one client command (ping, a P4Runtime client) may take.
const CLIENT: Duration = Duration::from_secs(20);

/// How long iperf3 sends.
const IPERF_SECONDS: &str = "3";

/// How long the iperf3 client keeps retrying while the server starts.
const IPERF_START: Duration = Duration::from_secs(20);

/// The drop counters of p4/sdn.p4, by stage.
const DROPS: [(&str, &str); 2] = [
    ("ingress", "SdnIngress.drops"),
    ("egress", "SdnEgress.drops"),
];

/// What the scenarios use.
pub struct Bench<'a> {
    pub topology: &'a Topology,
    pub tools: &'a Tools,
    pub operator: &'a mut Operator,
    /// The `janus` executable (the P4Runtime client commands).
    pub exe: &'a Path,
    /// The program's drop reasons (`DROP_L2_MISS` -> `l2 miss`).
    pub reasons: Codes,
}

/// The name of drop reason `r` (a counter index).
fn reason_name(reasons: &Codes, r: i64) -> &str {
    u8::try_from(r).map_or("?", |r| reasons.name(r))
}

impl Bench<'_> {
    /// Both drop counters' cells.
    fn drops(&mut self) -> Result<Vec<Cells>, RealError> {
        DROPS
            .iter()
            .map(|(_, name)| self.operator.counter(name))
            .collect()
    }

    /// What the drop counters moved by between `before` and now.
    fn drops_since(&mut self, before: &[Cells]) -> Result<String, RealError> {
        let after = self.drops()?;
        let mut moved = Vec::new();
        for (((stage, _), b), a) in DROPS.iter().zip(before).zip(&after) {
            for (cell_a, cell_b) in a.iter().zip(b) {
                let n = cell_a.1 - cell_b.1;
                if n > 0 {
                    let reason = reason_name(&self.reasons, cell_a.0);
                    moved.push(format!("{n} in {stage}, reason {} ({reason})", cell_a.0));
                }
            }
        }
        Ok(if moved.is_empty() {
            "none".into()
        } else {
            moved.join("; ")
        })
    }

    /// Runs `work`, records it with the NIC's drops during it.
    fn scenario(
        &mut self,
        report: &mut Report,
        title: &str,
        expect: Expect,
        work: impl FnOnce(&mut Self) -> Result<Fate, RealError>,
    ) -> Result<(), RealError> {
        let before = self.drops()?;
        let fate = work(self)?;
        let drops = self.drops_since(&before)?;
        report.record(title, expect, &fate, Some(&drops));
        Ok(())
    }

    /// `ping` from `from` to `to`: `count` echo requests.
    fn ping(&self, from: &Vm, to: &Vm, count: u32) -> Result<Fate, RealError> {
        let count = count.to_string();
        let dst = to.ip.to_string();
        let run = run_bounded(
            self.topology.ns(from).exec(
                &self.tools.ping,
                &["-n", "-c", &count, "-i", "0.2", "-W", "1", &dst],
            ),
            CLIENT,
        )?;
        let received = run
            .stdout
            .lines()
            .find(|l| l.contains("packets transmitted"))
            .and_then(|l| l.split(", ").nth(1))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse::<u32>().ok());
        let rtt = run
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("rtt min/avg/max/mdev = "))
            .and_then(|v| v.split('/').nth(1))
            .map(|avg| format!(", average round trip {avg} ms"))
            .unwrap_or_default();
        Ok(match received {
            Some(n) => Fate {
                succeeded: n > 0 && run.success(),
                text: format!("{n} of {count} echo requests answered{rtt}"),
            },
            None => Fate {
                succeeded: false,
                text: format!("ping gave no summary: {}", run.last_line()),
            },
        })
    }

    /// `janus ctrl table list vf_tenants` against the management address,
    /// run in `ns`.
    fn list_vfs(&self, ns: &super::guard::Netns) -> Result<Finished, RealError> {
        let server = self.topology.mgmt_addr.to_string();
        run_bounded(
            ns.exec(
                self.exe,
                &["ctrl", "table", "list", "vf_tenants", "--server", &server],
            ),
            CLIENT,
        )
    }

    /// `list_vfs` as a fate: its first line, or why it failed.
    fn list_fate(run: &Finished) -> Fate {
        match run.status {
            None => Fate {
                succeeded: false,
                text: format!("no answer within {} s", CLIENT.as_secs()),
            },
            Some(_) if run.success() => Fate {
                succeeded: true,
                text: format!("read {}", run.stdout.lines().next().unwrap_or("").trim()),
            },
            Some(_) => Fate {
                succeeded: false,
                text: run.last_line().to_string(),
            },
        }
    }

    /// iperf3 from a1 to a2: the received rate, or why there is none.
    fn iperf3(&self, iperf3: &Path) -> Result<Fate, RealError> {
        let a2 = A2.ip.to_string();
        let server = Daemon::start(
            "iperf3 -s",
            self.topology.ns(&A2).exec(iperf3, &["-s", "-1", "-B", &a2]),
        )?;
        // The server says nothing when it is ready: retry while it starts.
        let deadline = Instant::now() + IPERF_START;
        let last = loop {
            let run = run_bounded(
                self.topology
                    .ns(&A1)
                    .exec(iperf3, &["-c", &a2, "-t", IPERF_SECONDS, "-f", "m"]),
                CLIENT,
            )?;
            if let Some(rate) = received_mbits(&run.stdout) {
                drop(server);
                return Ok(Fate {
                    succeeded: rate > 0.0,
                    text: format!("{rate:.1} Mbit/s received over {IPERF_SECONDS} s"),
                });
            }
            if Instant::now() >= deadline {
                break run.last_line().to_string();
            }
            std::thread::sleep(Duration::from_millis(300));
        };
        Ok(Fate {
            succeeded: false,
            text: format!("no rate: {last}"),
        })
    }

    /// Runs every scenario into `report`.
    pub fn run(&mut self, report: &mut Report) -> Result<(), RealError> {
        println!("\n  Tenant traffic, through the NIC's pipeline");
        self.scenario(
            report,
            "a1 -> a2: ping inside tenant A (VF2 to VF3)",
            Expect::Succeeds,
            |b| b.ping(&A1, &A2, 3),
        )?;
        self.scenario(
            report,
            "a1 -> b1: ping from tenant A to tenant B (a1 knows b1's MAC)",
            Expect::Fails,
            |b| b.ping(&A1, &B1, 2),
        )?;
        self.scenario(
            report,
            "b1 -> a2: ping from tenant B to tenant A (b1 knows a2's MAC)",
            Expect::Fails,
            |b| b.ping(&B1, &A2, 2),
        )?;
        let mgmt = self.topology.mgmt_addr;
        self.scenario(
            report,
            &format!(
                "a1 -> the management address {mgmt}: a P4Runtime client in a1 tries to connect (TCP)"
            ),
            Expect::Fails,
            |b| {
                let run = b.list_vfs(b.topology.ns(&A1))?;
                Ok(Self::list_fate(&run))
            },
        )?;

        println!("\n  The operator, on the management network");
        self.scenario(
            report,
            &format!(
                "management namespace -> {mgmt}: `janus ctrl table list vf_tenants` (P4Runtime Read)"
            ),
            Expect::Succeeds,
            |b| {
                let run = b.list_vfs(&b.topology.mgmt)?;
                Ok(Self::list_fate(&run))
            },
        )?;
        self.scenario(
            report,
            &format!(
                "the operator's end ({}) -> {mgmt}: P4Runtime Capabilities",
                self.topology.operator_ip
            ),
            Expect::Succeeds,
            |b| {
                Ok(match b.operator.capabilities() {
                    Ok(v) => Fate {
                        succeeded: true,
                        text: format!("P4Runtime API version {v}"),
                    },
                    Err(RealError::Interrupted) => return Err(RealError::Interrupted),
                    Err(e) => Fate {
                        succeeded: false,
                        text: e.to_string(),
                    },
                })
            },
        )?;

        println!("\n  Throughput");
        let title = format!("a1 -> a2: iperf3 (TCP) for {IPERF_SECONDS} s inside tenant A");
        match self.tools.iperf3.clone() {
            Some(iperf3) => {
                self.scenario(report, &title, Expect::Succeeds, |b| b.iperf3(&iperf3))?
            }
            None => report.skip(
                &title,
                "iperf3 is not installed (`apt-get install iperf3` to measure it)",
            ),
        }
        Ok(())
    }

    /// The counters read back over P4Runtime: per tenant (a scenario:
    /// both tenants' traffic was counted), per VF and the drops by reason.
    pub fn counters(&mut self, report: &mut Report) -> Result<(), RealError> {
        println!(
            "\n  Counters, read over P4Runtime at {} (CounterEntry reads)",
            self.topology.mgmt_addr
        );
        let tenants = self.operator.counter("SdnIngress.tenant_packets")?;
        let cell = |cells: &Cells, i: i64| {
            cells
                .iter()
                .find(|c| c.0 == i)
                .map_or((0, 0), |c| (c.1, c.2))
        };
        let per_tenant: Vec<(i64, i64)> = TENANTS
            .iter()
            .map(|t| cell(&tenants, i64::from(t.id)))
            .collect();
        let text: Vec<String> = TENANTS
            .iter()
            .zip(&per_tenant)
            .map(|(t, (p, b))| {
                format!(
                    "tenant {} (id {}, VNI {}) {p} frames, {b} bytes",
                    t.name, t.id, t.vni
                )
            })
            .collect();
        report.record(
            "SdnIngress.tenant_packets: both tenants' frames were classified and counted",
            Expect::Succeeds,
            &Fate {
                succeeded: per_tenant.iter().all(|(p, _)| *p > 0),
                text: text.join("; "),
            },
            None,
        );
        let (rx, tx, dropped) = (
            self.operator.counter("SdnIngress.vf_rx")?,
            self.operator.counter("SdnEgress.vf_tx")?,
            self.operator.counter("SdnIngress.vf_drops")?,
        );
        println!(
            "      {:<22} {:>22} {:>22} {:>9}",
            "VF", "received from it", "sent to it", "dropped"
        );
        for vm in Topology::MACHINES {
            let port = i64::from(vm.port);
            let (r, t) = (cell(&rx, port), cell(&tx, port));
            println!(
                "      {:<22} {:>22} {:>22} {:>9}",
                format!(
                    "VF{} ({}, tenant {})",
                    vm.port,
                    vm.name,
                    super::topology::Tenant::of(vm).name
                ),
                format!("{} ({} B)", r.0, r.1),
                format!("{} ({} B)", t.0, t.1),
                cell(&dropped, port).0
            );
        }
        println!("      drops by reason (non-zero only):");
        let drops = self.drops()?;
        for ((stage, _), cells) in DROPS.iter().zip(&drops) {
            for (reason, packets, _) in cells.iter().filter(|c| c.1 > 0) {
                let name = reason_name(&self.reasons, *reason);
                println!("        {stage:<8} {reason:>2}  {name:<24} {packets:>6}");
            }
        }
        Ok(())
    }
}

/// The receiver's rate in iperf3's text output (`-f m`).
fn received_mbits(out: &str) -> Option<f64> {
    let line = out
        .lines()
        .rev()
        .find(|l| l.trim_end().ends_with("receiver"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let unit = words.iter().position(|w| *w == "Mbits/sec")?;
    words.get(unit.checked_sub(1)?)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_receivers_rate_is_read_from_iperf3s_summary() {
        let out = "[  5]   0.00-3.00   sec  10.0 MBytes  28.0 Mbits/sec    0             sender\n\
                   [  5]   0.00-3.04   sec  9.88 MBytes  27.3 Mbits/sec                  receiver\n";
        assert_eq!(received_mbits(out), Some(27.3));
        assert_eq!(received_mbits("iperf3: error - unable to connect"), None);
    }
}
