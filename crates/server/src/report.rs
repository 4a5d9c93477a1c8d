//! An incident's printable report (`GET /incidents/ID/report`), one page
//! for an appeals committee: the board, the players and the round, when it
//! happened, each touch with the frame that shows it, the board before the
//! move with the touched squares numbered, what the Laws asked and what was
//! played, the claim's window, and the arbiter's decision with their name
//! and note. Drawn by the service, with no script, so that it prints as it
//! shows.

use referee_proto as pb;
use serde_json::Value;

use crate::game::moment;
use crate::json::side_name;

const STYLE: &str = "
@page { size: A4; margin: 14mm; }
body { font-family: system-ui, sans-serif; color: #1d232a; margin: 0 auto; max-width: 180mm; font-size: 10.5pt; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
h2 { font-size: 11.5pt; margin: 4mm 0 1.5mm; border-bottom: 1px solid #aaa; }
table.facts { border-collapse: collapse; width: 100%; }
table.facts th { text-align: left; width: 32mm; font-weight: 600; padding: 0.6mm 2mm 0.6mm 0; }
table.facts td { padding: 0.6mm 0; }
.touches { display: flex; gap: 3mm; align-items: flex-start; }
.touches figure { margin: 0; width: 60mm; font-size: 9pt; }
.touches img { width: 60mm; display: block; border-radius: 1mm; }
svg.board { width: 52mm; height: 52mm; flex: none; }
svg.board .light { fill: #eed9b6; } svg.board .dark { fill: #b58863; }
svg.board .touched { fill: none; stroke: #c0392b; stroke-width: 0.07; }
svg.board .badge { fill: #c0392b; } svg.board .number { fill: #fff; font-weight: bold; }
.signature { margin-top: 8mm; display: flex; gap: 20mm; }
.signature div { border-top: 1px solid #333; width: 60mm; padding-top: 1mm; font-size: 9pt; }
footer { margin-top: 4mm; font-size: 8pt; color: #555; }
";

/// The report's HTML; `token` is the `?token=` its pictures are fetched with.
pub fn page(
    verdict: &pb::Verdict,
    incident: &pb::Incident,
    clip: Option<&Value>,
    token: &str,
) -> String {
    let game = verdict.game.clone().unwrap_or_default();
    let kind = incident.kind.replace('_', " ");
    let mut html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Incident {id}: {kind}</title><style>{STYLE}</style></head><body>\
         <h1>Incident report: {kind} (art. {article})</h1>",
        id = escape(&incident.id),
        kind = escape(&kind),
        article = escape(&incident.article),
    );
    html.push_str(&facts(&game, incident));
    html.push_str(&format!(
        "<h2>What happened</h2><p class=\"detail\">{}</p><p class=\"law\">Art. {}: {}</p>",
        escape(&incident.detail),
        escape(&incident.article),
        escape(referee_rules::law(&incident.article)),
    ));
    html.push_str(&touches(incident, clip, token));
    html.push_str(&format!(
        "<h2>The move</h2><p class=\"played\">{}</p>",
        played(verdict, incident)
    ));
    html.push_str(&format!(
        "<h2>The claim</h2><p class=\"claim\">{}</p>",
        claim(incident)
    ));
    html.push_str(&decision(incident));
    html.push_str(&format!(
        "<footer>The referee: game {}, incident {}, report printed {}.</footer></body></html>",
        escape(&game.id),
        escape(&incident.id),
        moment(crate::game::now()),
    ));
    html
}

fn facts(game: &pb::Game, incident: &pb::Incident) -> String {
    let side = side_name(incident.side);
    let mover = if side == "white" { "White" } else { "Black" };
    let rows = [
        ("Event", game.event.clone()),
        ("Round", game.round.clone()),
        ("Board", game.board_id.clone()),
        ("White", game.white.clone()),
        ("Black", game.black.clone()),
        ("Date", game.date.clone()),
        (
            "When",
            format!(
                "move {}, {mover} to play (ply {}), {:.1} s into the camera's stream",
                incident.ply.div_ceil(2),
                incident.ply,
                incident.t
            ),
        ),
        ("By", mover.to_string()),
    ];
    let body: String = rows
        .iter()
        .map(|(name, value)| {
            let value = if value.is_empty() { "?" } else { value };
            format!("<tr><th>{name}</th><td>{}</td></tr>", escape(value))
        })
        .collect();
    format!("<table class=\"facts\">{body}</table>")
}

/// Each touch with the clip's frame that shows it, beside the board before
/// the move with the touched squares numbered.
fn touches(incident: &pb::Incident, clip: Option<&Value>, token: &str) -> String {
    let mut out = String::from("<h2>The touches, in the order the Laws weigh them</h2>");
    let Some(clip) = clip else {
        let listed: Vec<String> = incident
            .touches
            .iter()
            .map(|t| format!("{}{} at {:.2} s", t.piece.to_uppercase(), t.square, t.t))
            .collect();
        out.push_str(&format!(
            "<p>{} (no clip was kept for this incident).</p>",
            escape(&if listed.is_empty() {
                "None told".to_string()
            } else {
                listed.join(", ")
            })
        ));
        return out;
    };
    let folder = incident
        .clip
        .rsplit_once('/')
        .map_or(String::new(), |(folder, _)| format!("{folder}/"));
    let frames = clip["frames"].as_array().cloned().unwrap_or_default();
    let marked = clip["touches"].as_array().cloned().unwrap_or_default();
    out.push_str("<div class=\"touches\">");
    out.push_str(&board(clip["fen"].as_str().unwrap_or(""), &marked));
    for touch in &marked {
        let frame = touch["frame"].as_u64().and_then(|k| frames.get(k as usize));
        let Some(frame) = frame else { continue };
        out.push_str(&format!(
            "<figure class=\"touch\"><img src=\"/evidence/{}{}{}\" alt=\"touch {}\"><figcaption>{}. {}{} touched at {:.2} s (frame at {:.2} s)</figcaption></figure>",
            escape(&folder),
            escape(frame["file"].as_str().unwrap_or("")),
            escape(token),
            touch["order"],
            touch["order"],
            escape(&touch["piece"].as_str().unwrap_or("").to_uppercase()),
            escape(touch["square"].as_str().unwrap_or("")),
            touch["t"].as_f64().unwrap_or(0.0),
            frame["t"].as_f64().unwrap_or(0.0),
        ));
    }
    out.push_str("</div>");
    out
}

/// The position `fen` as SVG, White at the bottom, the `marked` touches
/// numbered on their squares.
fn board(fen: &str, marked: &[Value]) -> String {
    const GLYPHS: &str = "KQRBNPkqrbnp";
    const SHOWN: [&str; 12] = [
        "\u{2654}", "\u{2655}", "\u{2656}", "\u{2657}", "\u{2658}", "\u{2659}", "\u{265A}",
        "\u{265B}", "\u{265C}", "\u{265D}", "\u{265E}", "\u{265F}",
    ];
    let mut svg = String::from("<svg class=\"board\" viewBox=\"0 0 8 8\">");
    for r in 0..8 {
        for f in 0..8 {
            let class = if (r + f) % 2 == 0 { "light" } else { "dark" };
            svg.push_str(&format!(
                "<rect x=\"{f}\" y=\"{r}\" width=\"1\" height=\"1\" class=\"{class}\"/>"
            ));
        }
    }
    let placement = fen.split(' ').next().unwrap_or("");
    for (r, row) in placement.split('/').take(8).enumerate() {
        let mut f = 0;
        for c in row.chars() {
            if let Some(skip) = c.to_digit(10) {
                f += skip as usize;
                continue;
            }
            if let Some(k) = GLYPHS.find(c) {
                svg.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"0.85\" text-anchor=\"middle\">{}</text>",
                    f as f64 + 0.5,
                    r as f64 + 0.8,
                    SHOWN[k]
                ));
            }
            f += 1;
        }
    }
    for touch in marked {
        let square = touch["square"].as_str().unwrap_or("");
        let mut chars = square.chars();
        let (Some(file), Some(rank)) = (chars.next(), chars.next().and_then(|c| c.to_digit(10)))
        else {
            continue;
        };
        let (x, y) = (
            (file as u8).wrapping_sub(b'a') as f64,
            8.0 - f64::from(rank),
        );
        svg.push_str(&format!(
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"0.92\" height=\"0.92\" class=\"touched\"/><circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"0.2\" class=\"badge\"/><text x=\"{:.2}\" y=\"{:.2}\" font-size=\"0.26\" text-anchor=\"middle\" class=\"number\">{}</text>",
            x + 0.04,
            y + 0.04,
            x + 0.22,
            y + 0.22,
            x + 0.22,
            y + 0.3,
            touch["order"]
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// The move of the incident's turn: as the incident names it, or as the
/// record has it when it was made after the incident was raised.
fn played(verdict: &pb::Verdict, incident: &pb::Incident) -> String {
    if !incident.played.is_empty() {
        return format!("{} was played.", escape(&incident.played));
    }
    match verdict.moves.iter().find(|m| m.ply == incident.ply) {
        Some(m) => format!(
            "{} was played (after the incident was raised).",
            escape(&m.san)
        ),
        None => "No move of that turn is in the record yet.".into(),
    }
}

fn claim(incident: &pb::Incident) -> String {
    if incident.kind == "record_gap" {
        return "Not a player's doing: the record is to be restored from the scoresheets.".into();
    }
    let claimant = if side_name(incident.side) == "white" {
        "Black"
    } else {
        "White"
    };
    if incident.claimable {
        format!(
            "Open: {claimant} may still claim; the right lapses once {claimant} touches a piece to move it (art. 4.8)."
        )
    } else {
        format!(
            "Closed: {claimant} touched a piece to move after it (art. 4.8); the arbiter may still act on it."
        )
    }
}

fn decision(incident: &pb::Incident) -> String {
    let mut out = String::from("<h2>The arbiter's decision</h2>");
    if incident.decision.is_empty() {
        out.push_str("<p class=\"decision\">Not decided yet.</p>");
    } else {
        out.push_str(&format!(
            "<p class=\"decision\"><strong>{}</strong> by {} on {}.</p>",
            escape(&incident.decision),
            escape(&incident.decided_by),
            moment(incident.decided_at),
        ));
        if !incident.note.is_empty() {
            out.push_str(&format!(
                "<p class=\"note\">Note: {}</p>",
                escape(&incident.note)
            ));
        }
    }
    out.push_str("<div class=\"signature\"><div>Arbiter</div><div>Date</div></div>");
    out
}

/// Text safe inside HTML and its attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_and_every_field_is_shown() {
        let verdict = pb::Verdict {
            game: Some(pb::Game {
                id: "1-1".into(),
                board_id: "1".into(),
                white: "Ann <b>".into(),
                black: "Bo".into(),
                event: "Club".into(),
                round: "3".into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        let incident = pb::Incident {
            id: "1-1-1".into(),
            ply: 2,
            side: pb::Side::Black as i32,
            kind: "touch_move".into(),
            article: "4.3a".into(),
            detail: "touched Ng8 first".into(),
            played: "Nc6".into(),
            decision: "upheld".into(),
            decided_by: "Anna".into(),
            note: "seen".into(),
            claimable: true,
            ..Default::default()
        };
        let html = page(&verdict, &incident, None, "");
        assert!(html.contains("Ann &lt;b&gt;"), "{html}");
        for shown in [
            "touch move (art. 4.3a)",
            "move 1, Black to play (ply 2)",
            "Nc6 was played",
            "<strong>upheld</strong> by Anna",
            "Note: seen",
            "Open: White may still claim",
            "must move the first touched piece",
        ] {
            assert!(html.contains(shown), "{shown}: {html}");
        }
    }
}
