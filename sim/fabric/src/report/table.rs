//! The table `janus fabric run` prints: one line per scheme.

use std::fmt::Write;

use super::Summary;

/// The summary as an aligned text table (times in milliseconds).
pub fn render(summary: &Summary) -> String {
    let mut out = format!(
        "{:<12} {:>5} {:>11} {:>11} {:>11} {:>9} {:>10} {:>9} {:>8}\n",
        "scheme",
        "runs",
        "mean ms",
        "p50 ms",
        "p95 ms",
        "x ideal",
        "flow Gb/s",
        "x ideal",
        "max util"
    );
    for s in &summary.schemes {
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "{:<12} {:>5} {:>11.3} {:>11.3} {:>11.3} {:>9.3} {:>10.1} {:>9.3} {:>8.3}",
            s.scheme,
            s.runs,
            s.mean_s * 1e3,
            s.p50_s * 1e3,
            s.p95_s * 1e3,
            s.mean_ratio_to_ideal,
            s.mean_flow_gbps,
            s.mean_throughput_ratio_to_ideal,
            s.max_link_utilisation
        );
    }
    out
}
