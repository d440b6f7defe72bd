//! A hand-written SVG plot: replays (log scale) vs session size, one colour per
//! (strategy, budget), plus the lower bound. Points are single runs; lines join the
//! median at each size.

use std::fmt::Write;

use super::report::{median, Row};

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 180.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 50.0;
const COLOURS: [&str; 6] = [
    "#d62728", "#ff7f0e", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
];

struct Axes {
    max_n: f64,
    max_log: f64,
}

impl Axes {
    fn x(&self, n: f64) -> f64 {
        LEFT + n / self.max_n * (WIDTH - LEFT - RIGHT)
    }
    fn y(&self, replays: f64) -> f64 {
        let log = replays.max(1.0).log10();
        HEIGHT - BOTTOM - log / self.max_log * (HEIGHT - TOP - BOTTOM)
    }
}

/// (x, y) per distinct size: the median of `value` over the rows at that size.
fn medians(rows: &[&Row], value: fn(&Row) -> f64) -> Vec<(f64, f64)> {
    let mut sizes: Vec<u32> = rows.iter().map(|r| r.steps).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .into_iter()
        .filter_map(|n| {
            let mut values: Vec<f64> = rows
                .iter()
                .filter(|r| r.steps == n)
                .map(|r| value(r))
                .collect();
            median(&mut values).map(|m| (f64::from(n), m))
        })
        .collect()
}

fn polyline(out: &mut String, axes: &Axes, points: &[(f64, f64)], colour: &str, dash: &str) {
    let coords: Vec<String> = points
        .iter()
        .map(|&(n, v)| format!("{:.1},{:.1}", axes.x(n), axes.y(v)))
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}" points="{}"/>"#,
        coords.join(" ")
    );
}

pub fn plot(rows: &[Row]) -> String {
    let max_n = f64::from(rows.iter().map(|r| r.steps).max().unwrap_or(1)).max(1.0);
    let max_replays = rows.iter().map(|r| r.replays).max().unwrap_or(1).max(10);
    let axes = Axes {
        max_n,
        max_log: f64::from(max_replays).log10().ceil().max(1.0),
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="100%" height="100%" fill="white"/><text x="{LEFT}" y="18" font-size="14">Replays to a proven result vs session size (log scale)</text>"#
    );
    // Axes, with decades on y and the suite's sizes on x.
    let (x0, y0) = (axes.x(0.0), axes.y(1.0));
    let _ = writeln!(
        out,
        r#"<line x1="{x0}" y1="{y0}" x2="{:.1}" y2="{y0}" stroke="black"/><line x1="{x0}" y1="{y0}" x2="{x0}" y2="{TOP}" stroke="black"/>"#,
        axes.x(max_n)
    );
    let mut decade = 1.0;
    while decade <= 10f64.powf(axes.max_log) {
        let y = axes.y(decade);
        let _ = writeln!(
            out,
            r##"<line x1="{x0}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{decade}</text>"##,
            axes.x(max_n),
            x0 - 6.0,
            y + 4.0
        );
        decade *= 10.0;
    }
    let mut sizes: Vec<u32> = rows.iter().map(|r| r.steps).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for n in &sizes {
        let x = axes.x(f64::from(*n));
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{n}</text>"#,
            y0 + 16.0
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">session size (replayable steps)</text>"#,
        axes.x(max_n / 2.0),
        y0 + 36.0
    );

    let mut series: Vec<(String, Vec<&Row>)> = Vec::new();
    for row in rows {
        let label = format!("{} (budget {})", row.strategy, row.max_replays);
        match series.iter_mut().find(|(l, _)| *l == label) {
            Some((_, members)) => members.push(row),
            None => series.push((label, vec![row])),
        }
    }
    let legend_x = WIDTH - RIGHT + 16.0;
    for (at, (label, members)) in series.iter().enumerate() {
        let colour = COLOURS[at % COLOURS.len()];
        for r in members {
            let _ = writeln!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}" fill-opacity="0.6"/>"#,
                axes.x(f64::from(r.steps)),
                axes.y(f64::from(r.replays))
            );
        }
        polyline(
            &mut out,
            &axes,
            &medians(members, |r| f64::from(r.replays)),
            colour,
            "none",
        );
        let y = TOP + 20.0 + 20.0 * at as f64;
        let _ = writeln!(
            out,
            r#"<line x1="{legend_x}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}">{}</text>"#,
            legend_x + 20.0,
            legend_x + 26.0,
            y + 4.0,
            escape(label)
        );
    }
    if let Some((_, members)) = series.first() {
        polyline(
            &mut out,
            &axes,
            &medians(members, |r| f64::from(r.lower_bound)),
            "black",
            "4 3",
        );
        let y = TOP + 20.0 + 20.0 * series.len() as f64;
        let _ = writeln!(
            out,
            r#"<line x1="{legend_x}" y1="{y}" x2="{}" y2="{y}" stroke="black" stroke-width="2" stroke-dasharray="4 3"/><text x="{}" y="{}">lower bound</text>"#,
            legend_x + 20.0,
            legend_x + 26.0,
            y + 4.0
        );
    }
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{simulate, suite, OracleTiming};
    use whittle_core::strategy::SearchStrategy;

    #[test]
    fn one_point_per_run_and_one_line_per_series_plus_the_bound() {
        let mut rows = Vec::new();
        for scenario in suite(true) {
            for strategy in SearchStrategy::ALL {
                let run = simulate(&scenario, strategy, 2000, OracleTiming::default()).unwrap();
                rows.push(Row::new(&scenario, strategy, &run, run.wall_ms, 0));
            }
        }
        let svg = plot(&rows);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<circle").count(), rows.len());
        // One line per strategy (one budget here), plus the bound.
        assert_eq!(
            svg.matches("<polyline").count(),
            SearchStrategy::ALL.len() + 1
        );
        assert!(svg.contains("seed (budget 2000)") && svg.contains("lower bound"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
}
