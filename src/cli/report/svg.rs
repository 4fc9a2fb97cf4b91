//! The evaluation graph of a game report as an SVG image: the first player's win
//! probability after each ply (up: the first player ahead), with axes, ply numbers, the
//! even line (evaluation 0), a dot on each marked move, a marker where the value is a
//! mate or proven (drawn at the edge it is clamped to) and a legend.

use super::marks::Mark;
use super::MoveReport;
use crate::cli::analyse::JsonScore;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 300.0;
/// The plot's box inside the image: left, top, right, bottom.
const LEFT: f64 = 58.0;
const TOP: f64 = 34.0;
const RIGHT: f64 = 748.0;
const BOTTOM: f64 = 262.0;
/// Ply steps for the x axis's labels, the smallest that gives at most this many labels.
const STEPS: [usize; 9] = [1, 2, 5, 10, 20, 25, 50, 100, 200];
const MAX_LABELS: usize = 16;

fn colour(m: Mark) -> &'static str {
    match m {
        Mark::Inaccuracy => "#d9a400",
        Mark::Mistake => "#e67300",
        Mark::Blunder => "#cc0000",
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The names of the first and second player: White and Black in a game the registry
/// shows as chess (`Appearance::chess`), sente and gote in the shogi games.
pub(crate) fn sides(chess: bool) -> (&'static str, &'static str) {
    if chess {
        ("White", "Black")
    } else {
        ("Sente", "Gote")
    }
}

/// The step between labelled plies for a game of `n` plies.
fn step(n: usize) -> usize {
    STEPS.iter().copied().find(|s| n / s <= MAX_LABELS).unwrap_or(500)
}

/// The graph of `moves` for a game whose first player is `first` and second `second`,
/// `title` as its accessible name.
pub(crate) fn graph(moves: &[MoveReport], title: &str, (first, second): (&str, &str)) -> String {
    let n = moves.len().max(1);
    let x = |ply: usize| LEFT + ply as f64 * (RIGHT - LEFT) / n as f64;
    let y = |percent: f64| TOP + (BOTTOM - TOP) * (1.0 - percent.clamp(0.0, 100.0) / 100.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} \
         {HEIGHT}\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n<title>{}</title>\n\
         <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#f4f1ea\"/>\n\
         <rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"#fffdf8\" stroke=\"#888\"/>\n",
        escape(title),
        RIGHT - LEFT,
        BOTTOM - TOP
    );
    // The y axis: the first player's win probability, its grid, and which side is up.
    out.push_str("<g class=\"y-axis\" text-anchor=\"end\">\n");
    for p in [0, 25, 50, 75, 100] {
        let yy = y(p as f64);
        if p != 50 && p != 0 && p != 100 {
            out.push_str(&format!(
                "<line x1=\"{LEFT}\" y1=\"{yy:.1}\" x2=\"{RIGHT}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/>\n"
            ));
        }
        out.push_str(&format!("<text x=\"{:.1}\" y=\"{:.1}\">{p}%</text>\n", LEFT - 6.0, yy + 4.0));
    }
    out.push_str(&format!(
        "<text class=\"axis-label\" transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">{} \
         wins (%)</text>\n</g>\n",
        (TOP + BOTTOM) / 2.0,
        escape(first)
    ));
    out.push_str(&format!(
        "<text class=\"up\" x=\"{RIGHT}\" y=\"20\" text-anchor=\"end\" fill=\"#555\">▲ {} ahead</text>\n\
         <text class=\"down\" x=\"{RIGHT}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#555\">▼ {} ahead</text>\n",
        escape(first),
        HEIGHT - 6.0,
        escape(second)
    ));
    // The x axis: ply numbers.
    let s = step(n);
    out.push_str("<g class=\"x-axis\" text-anchor=\"middle\">\n");
    for ply in (0..=n).step_by(s) {
        let xx = x(ply);
        out.push_str(&format!(
            "<line x1=\"{xx:.1}\" y1=\"{BOTTOM}\" x2=\"{xx:.1}\" y2=\"{:.1}\" stroke=\"#888\"/>\n\
             <text x=\"{xx:.1}\" y=\"{:.1}\">{ply}</text>\n",
            BOTTOM + 4.0,
            BOTTOM + 16.0
        ));
    }
    out.push_str(&format!(
        "<text class=\"axis-label\" x=\"{:.1}\" y=\"{:.1}\">ply</text>\n</g>\n",
        (LEFT + RIGHT) / 2.0,
        HEIGHT - 6.0
    ));
    // The even line: evaluation 0, a 50% win probability.
    out.push_str(&format!(
        "<line class=\"zero\" x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{RIGHT}\" y2=\"{0:.1}\" stroke=\"#666\" \
         stroke-dasharray=\"5 3\"/>\n<text x=\"{1:.1}\" y=\"{2:.1}\" text-anchor=\"end\" fill=\"#666\">even (0)</text>\n",
        y(50.0),
        RIGHT - 4.0,
        y(50.0) - 4.0
    ));
    let start = moves.first().map_or(50.0, |m| m.win_before);
    let mut points = vec![format!("{:.1},{:.1}", x(0), y(start))];
    points.extend(moves.iter().enumerate().map(|(i, m)| format!("{:.1},{:.1}", x(i + 1), y(m.win_after))));
    out.push_str(&format!(
        "<polyline fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"{}\"/>\n",
        points.join(" ")
    ));
    for (i, m) in moves.iter().enumerate() {
        let (xx, yy) = (x(i + 1), y(m.win_after));
        let name = format!("{} {}", m.ply, escape(&m.r#move));
        match m.after {
            // A mate: a triangle at the edge it is clamped to, pointing off the graph.
            Some(JsonScore::Mate(k)) => {
                let up = m.win_after >= 50.0;
                let (tip, base) = if up { (yy - 1.0, yy + 7.0) } else { (yy + 1.0, yy - 7.0) };
                let what = if m.exact { "proven" } else { "mate" };
                out.push_str(&format!(
                    "<polygon class=\"mate\" points=\"{:.1},{tip:.1} {:.1},{base:.1} {:.1},{base:.1}\" \
                     fill=\"#335\"><title>{name}: #{k} ({what})</title></polygon>\n",
                    xx,
                    xx - 4.0,
                    xx + 4.0
                ));
            }
            // Another proven value (a draw): a hollow diamond.
            _ if m.exact => out.push_str(&format!(
                "<polygon class=\"exact\" points=\"{xx:.1},{:.1} {:.1},{yy:.1} {xx:.1},{:.1} {:.1},{yy:.1}\" \
                 fill=\"none\" stroke=\"#335\"><title>{name}: proven</title></polygon>\n",
                yy - 4.0,
                xx + 4.0,
                yy + 4.0,
                xx - 4.0
            )),
            _ => {}
        }
        if let Some(mark) = m.mark {
            out.push_str(&format!(
                "<circle cx=\"{xx:.1}\" cy=\"{yy:.1}\" r=\"4\" fill=\"{}\" stroke=\"#fff\"><title>{name}: {}</title>\
                 </circle>\n",
                colour(mark),
                mark.name()
            ));
        }
    }
    // The legend, above the plot.
    out.push_str("<g class=\"legend\">\n");
    let mut lx = LEFT;
    for mark in [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder] {
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"16\" r=\"4\" fill=\"{}\"/><text x=\"{:.1}\" y=\"20\">{}</text>\n",
            lx + 4.0,
            colour(mark),
            lx + 12.0,
            mark.name()
        ));
        lx += 92.0;
    }
    out.push_str(&format!(
        "<polygon points=\"{:.1},11 {:.1},19 {:.1},19\" fill=\"#335\"/><text x=\"{:.1}\" y=\"20\">mate \
         (drawn at the edge)</text>\n",
        lx + 4.0,
        lx,
        lx + 8.0,
        lx + 12.0
    ));
    lx += 150.0;
    out.push_str(&format!(
        "<polygon points=\"{0:.1},12 {1:.1},16 {0:.1},20 {2:.1},16\" fill=\"none\" stroke=\"#335\"/><text \
         x=\"{3:.1}\" y=\"20\">proven draw</text>\n</g>\n",
        lx + 4.0,
        lx + 8.0,
        lx,
        lx + 12.0
    ));
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_labels_stay_few() {
        assert_eq!(step(10), 1);
        assert_eq!(step(85), 10);
        assert_eq!(step(300), 20);
        assert!((0..5000).all(|n| n / step(n) <= MAX_LABELS || step(n) == 500));
    }
}
