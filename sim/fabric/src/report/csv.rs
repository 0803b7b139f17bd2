//! `runs.csv`: one row per job of every run (scheme, seed), in the
//! sweep's order. Columns are [`COLUMNS`]; docs/fabric.md, "Outputs".

use std::fmt::Write;

use crate::run::RunOutcome;

/// The header of `runs.csv`.
pub const COLUMNS: &[&str] = &[
    "scheme",
    "seed",
    "job",
    "completion_s",
    "ideal_s",
    "ratio",
    "makespan_s",
    "mean_flow_gbps",
    "p5_flow_gbps",
    "throughput_ratio",
    "mean_link_utilisation",
    "max_link_utilisation",
];

/// The text of `runs.csv` (header included).
pub fn runs_csv(outcomes: &[RunOutcome]) -> String {
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for o in outcomes {
        for j in &o.jobs {
            // Writing to a String cannot fail.
            let _ = writeln!(
                out,
                "{},{},{},{:.9},{:.9},{:.6},{:.9},{:.3},{:.3},{:.6},{:.6},{:.6}",
                o.scheme,
                o.seed,
                j.name,
                j.completion,
                j.ideal,
                j.ratio,
                o.makespan,
                o.transfer_throughput.mean,
                o.transfer_throughput.p5,
                o.throughput_ratio,
                o.utilisation.mean,
                o.utilisation.max
            );
        }
    }
    out
}
