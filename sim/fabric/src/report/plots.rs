//! The SVG plots of `janus fabric run` (plotters, SVG backend; text is
//! SVG text, no fonts loaded):
//!
//! - [`completion_cdf`]: per scheme, the empirical CDF of the completion
//!   time (makespan) over the seeds, as a step line;
//! - [`utilisation_histogram`]: per scheme, the share of the links that
//!   carried bytes in each tenth of utilisation (0-10 %, ..., 90-100 %),
//!   over all seeds, as side-by-side bars.

use plotters::prelude::*;

use super::Summary;
use crate::run::RunOutcome;

const SIZE: (u32, u32) = (720, 420);
const BINS: usize = 10;

/// Colour of the `i`-th scheme.
fn colour(i: usize) -> RGBColor {
    const PALETTE: [RGBColor; 6] = [
        RGBColor(0xd6, 0x27, 0x28),
        RGBColor(0x1f, 0x77, 0xb4),
        RGBColor(0x2c, 0xa0, 0x2c),
        RGBColor(0xff, 0x7f, 0x0e),
        RGBColor(0x94, 0x67, 0xbd),
        RGBColor(0x8c, 0x56, 0x4b),
    ];
    PALETTE[i % PALETTE.len()]
}

/// The series' legend at `position`, on a translucent white box.
fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)
}

fn err(e: impl std::fmt::Display) -> String {
    format!("plot: {e}")
}

/// The completion-time CDF, as SVG text.
pub fn completion_cdf(summary: &Summary, outcomes: &[RunOutcome]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let ms: Vec<Vec<f64>> = summary
            .schemes
            .iter()
            .map(|s| {
                let mut v: Vec<f64> = outcomes
                    .iter()
                    .filter(|o| o.scheme.to_string() == s.scheme)
                    .map(|o| o.makespan * 1e3)
                    .collect();
                v.sort_by(f64::total_cmp);
                v
            })
            .collect();
        let hi = ms.iter().flatten().copied().fold(0.0, f64::max).max(1e-9) * 1.05;
        let mut chart = ChartBuilder::on(&root)
            .caption("Completion time over seeds (CDF)", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..hi, 0.0..1.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .max_light_lines(0)
            .x_desc("completion time (ms)")
            .y_desc("share of seeds")
            .draw()
            .map_err(err)?;
        for (i, (s, v)) in summary.schemes.iter().zip(&ms).enumerate() {
            let n = v.len() as f64;
            let mut points = vec![(0.0, 0.0)];
            for (k, x) in v.iter().enumerate() {
                points.push((*x, k as f64 / n));
                points.push((*x, (k + 1) as f64 / n));
            }
            points.push((hi, 1.0));
            let c = colour(i);
            chart
                .draw_series(LineSeries::new(points, c.stroke_width(2)))
                .map_err(err)?
                .label(s.scheme.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                });
        }
        draw_legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The link-utilisation histogram, as SVG text.
pub fn utilisation_histogram(summary: &Summary, outcomes: &[RunOutcome]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let shares: Vec<[f64; BINS]> = summary
            .schemes
            .iter()
            .map(|s| {
                let mut bins = [0.0; BINS];
                let used = outcomes
                    .iter()
                    .filter(|o| o.scheme.to_string() == s.scheme)
                    .flat_map(|o| o.link_utilisation.iter().copied())
                    .filter(|u| *u > 0.0);
                let mut n = 0.0;
                for u in used {
                    bins[((u * BINS as f64) as usize).min(BINS - 1)] += 1.0;
                    n += 1.0;
                }
                if n > 0.0 {
                    bins.iter_mut().for_each(|b| *b /= n);
                }
                bins
            })
            .collect();
        let top = shares
            .iter()
            .flatten()
            .copied()
            .fold(0.0, f64::max)
            .max(0.01)
            * 1.1;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Link utilisation (links that carried bytes)",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..1.0, 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .max_light_lines(0)
            .x_desc("utilisation (bytes / capacity x makespan)")
            .y_desc("share of links")
            .draw()
            .map_err(err)?;
        let width = 1.0 / BINS as f64;
        let bar = width / (shares.len().max(1) as f64 + 1.0);
        for (i, (s, bins)) in summary.schemes.iter().zip(&shares).enumerate() {
            let c = colour(i);
            chart
                .draw_series(bins.iter().enumerate().map(|(b, share)| {
                    let x0 = b as f64 * width + bar * (i as f64 + 0.5);
                    Rectangle::new([(x0, 0.0), (x0 + bar, *share)], c.filled())
                }))
                .map_err(err)?
                .label(s.scheme.clone())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
