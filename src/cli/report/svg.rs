//! The evaluation graph of a game report as an SVG image: the first player's win
//! probability after each ply, the even line, and a dot on each marked move.

use super::marks::Mark;
use super::MoveReport;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 240.0;

fn colour(m: Mark) -> &'static str {
    match m {
        Mark::Inaccuracy => "#e6b800",
        Mark::Mistake => "#e67300",
        Mark::Blunder => "#cc0000",
    }
}

/// The graph of `moves` (the first player's win probability, 0 at the bottom, 100 at the
/// top), `title` as its accessible name.
pub(crate) fn graph(moves: &[MoveReport], title: &str) -> String {
    let n = moves.len().max(1) as f64;
    let x = |ply: usize| ply as f64 * WIDTH / n;
    let y = |percent: f64| HEIGHT * (1.0 - percent / 100.0);
    let start = moves.first().map_or(50.0, |m| m.win_before);
    let mut points = vec![format!("{:.1},{:.1}", x(0), y(start))];
    points.extend(moves.iter().enumerate().map(|(i, m)| format!("{:.1},{:.1}", x(i + 1), y(m.win_after))));
    let title = title.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\">\n\
         <title>{title}</title>\n\
         <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#f4f1ea\"/>\n\
         <line x1=\"0\" y1=\"{mid}\" x2=\"{WIDTH}\" y2=\"{mid}\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>\n\
         <polyline fill=\"none\" stroke=\"#222\" stroke-width=\"2\" points=\"{}\"/>\n",
        points.join(" "),
        mid = y(50.0),
    );
    for (i, m) in moves.iter().enumerate() {
        if let Some(mark) = m.mark {
            out.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{}\"><title>{} {}: {}</title></circle>\n",
                x(i + 1),
                y(m.win_after),
                colour(mark),
                m.ply,
                m.r#move,
                mark.name()
            ));
        }
    }
    out.push_str("</svg>\n");
    out
}
