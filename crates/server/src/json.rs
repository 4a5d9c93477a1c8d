//! The service's records as JSON: the verdict of contracts.md §2 (with the
//! service's additions) for `referee game --json` and the HTTP pages, and
//! each live update for the pages' event streams.

use referee_proto as pb;
use referee_proto::update::What;
use referee_rules::seconds::to_millisecond;
use serde_json::{Value, json};

pub fn side_name(side: i32) -> &'static str {
    match pb::Side::try_from(side) {
        Ok(pb::Side::White) => "white",
        Ok(pb::Side::Black) => "black",
        _ => "",
    }
}

pub fn game_json(game: &pb::Game) -> Value {
    json!({
        "id": game.id, "board_id": game.board_id, "white": game.white, "black": game.black,
        "event": game.event, "round": game.round, "start_fen": game.start_fen,
        "result": game.result, "state": game.state,
    })
}

pub fn move_json(m: &pb::Move) -> Value {
    let mut value = json!({
        "ply": m.ply, "side": side_name(m.side), "san": m.san, "uci": m.uci,
        "t": to_millisecond(m.t),
    });
    if m.recovered {
        value["recovered"] = json!(true);
    }
    value
}

pub fn incident_json(i: &pb::Incident) -> Value {
    let mut value = json!({
        "id": i.id, "ply": i.ply, "side": side_name(i.side), "kind": i.kind, "article": i.article,
        "squares": i.squares, "t": to_millisecond(i.t), "claimable": i.claimable, "detail": i.detail,
        "law": referee_rules::law(&i.article),
        "evidence": i.evidence,
        "touches": i.touches.iter().map(|t| json!({"square": t.square, "piece": t.piece, "t": to_millisecond(t.t)})).collect::<Vec<_>>(),
        "played": i.played,
    });
    if !i.clip.is_empty() {
        value["clip"] = json!(i.clip);
    }
    if !i.decision.is_empty() {
        value["decision"] = json!(i.decision);
        value["decided_by"] = json!(i.decided_by);
        value["note"] = json!(i.note);
    }
    value
}

pub fn event_json(e: &pb::PhysicalEvent) -> Value {
    let mut value = json!({"t": to_millisecond(e.t), "type": e.r#type});
    for (key, text) in [("square", &e.square), ("piece", &e.piece)] {
        if !text.is_empty() {
            value[key] = json!(text);
        }
    }
    if !side_name(e.side).is_empty() {
        value["side"] = json!(side_name(e.side));
    }
    if e.confidence < 1.0 {
        value["confidence"] = json!(e.confidence);
    }
    if e.recovered {
        value["recovered"] = json!(true);
    }
    value
}

/// The verdict of contracts.md §2, with the service's additions (the game,
/// decisions, corrections).
pub fn verdict_json(v: &pb::Verdict) -> Value {
    let stats = v.stats.unwrap_or_default();
    let mut value = json!({
        "moves": v.moves.iter().map(move_json).collect::<Vec<_>>(),
        "incidents": v.incidents.iter().map(incident_json).collect::<Vec<_>>(),
        "result": v.result,
        "fen": v.fen,
        "pgn": v.pgn,
        "events": v.events.iter().map(event_json).collect::<Vec<_>>(),
        "stats": {
            "frames_received": stats.frames_received,
            "frames_processed": stats.frames_processed,
            "frames_dropped": stats.frames_dropped,
            "frames_corrupt": stats.frames_corrupt,
            "frames_refused": stats.frames_refused,
            "frames_paced": stats.frames_paced,
            "stride": stats.stride,
            "refereed_fps": stats.refereed_fps,
        },
    });
    if let Some(game) = &v.game {
        value["game"] = game_json(game);
    }
    if !v.termination.is_empty() {
        value["termination"] = json!(v.termination);
    }
    if !v.corrections.is_empty() {
        value["corrections"] = v
            .corrections
            .iter()
            .map(|c| json!({"ply": c.ply, "uci": c.uci, "san": c.san, "note": c.note, "by": c.by}))
            .collect();
    }
    value
}

/// One live update, as the pages receive it.
pub fn update_json(update: &pb::Update) -> Value {
    let (kind, body) = match &update.what {
        Some(What::Event(e)) => ("event", event_json(e)),
        Some(What::Move(m)) => ("move", move_json(m)),
        Some(What::Incident(i)) if i.decision.is_empty() => ("incident", incident_json(i)),
        Some(What::Incident(i)) => ("decision", incident_json(i)),
        Some(What::Result(r)) => ("result", json!(r)),
        Some(What::Stats(s)) => (
            "stats",
            json!({"frames_received": s.frames_received, "frames_processed": s.frames_processed,
                   "frames_dropped": s.frames_dropped, "frames_corrupt": s.frames_corrupt}),
        ),
        Some(What::Correction(c)) => (
            "correction",
            json!({"ply": c.ply, "uci": c.uci, "san": c.san, "note": c.note, "by": c.by,
                   "moves": c.moves.iter().map(move_json).collect::<Vec<_>>()}),
        ),
        None => ("none", Value::Null),
    };
    json!({"game_id": update.game_id, "seq": update.seq, "kind": kind, "body": body})
}
