//! The rules engine's records in the API's terms (proto `referee.v1`), and
//! back where the store replays a game.

use referee_proto as pb;
use referee_rules::{Event, Incident, IncidentKind, MoveRecord, Side, article};
use referee_watch::HandSource;
use serde_json::{Map, Value};

pub fn side(side: Side) -> i32 {
    match side {
        Side::White => pb::Side::White as i32,
        Side::Black => pb::Side::Black as i32,
    }
}

fn side_name(side: i32) -> Option<&'static str> {
    match pb::Side::try_from(side) {
        Ok(pb::Side::White) => Some("white"),
        Ok(pb::Side::Black) => Some("black"),
        _ => None,
    }
}

/// What the footage was found to show, as the game keeps it.
pub fn footage(found: HandSource) -> pb::Footage {
    match found {
        HandSource::Auto => pb::Footage::Untold,
        HandSource::Real => pb::Footage::Real,
        HandSource::Rendered => pb::Footage::Rendered,
    }
}

/// The hand models a game's footage was found to need (`Auto`: not told).
pub fn footage_back(footage: pb::Footage) -> HandSource {
    match footage {
        pb::Footage::Untold => HandSource::Auto,
        pb::Footage::Real => HandSource::Real,
        pb::Footage::Rendered => HandSource::Rendered,
    }
}

/// A physical event on the wire.
pub fn event(event: &Event) -> pb::PhysicalEvent {
    let value = serde_json::to_value(event).unwrap_or_default();
    let text = |key: &str| value[key].as_str().unwrap_or_default().to_string();
    pb::PhysicalEvent {
        t: event.t,
        r#type: text("type"),
        square: text("square"),
        piece: text("piece"),
        side: match event.side {
            Some(color) => side(color.into()),
            None => pb::Side::Unspecified as i32,
        },
        confidence: event.confidence.unwrap_or(1.0),
        recovered: event.recovered,
    }
}

/// A stored physical event, parsed back as the event log parses it.
pub fn event_back(event: &pb::PhysicalEvent) -> Result<Event, String> {
    let mut object = Map::new();
    object.insert("t".into(), event.t.into());
    object.insert("type".into(), event.r#type.clone().into());
    if !event.square.is_empty() {
        object.insert("square".into(), event.square.clone().into());
    }
    if !event.piece.is_empty() {
        object.insert("piece".into(), event.piece.clone().into());
    }
    if let Some(name) = side_name(event.side) {
        object.insert("side".into(), name.into());
    }
    if event.confidence < 1.0 {
        object.insert("confidence".into(), f64::from(event.confidence).into());
    }
    if event.recovered {
        object.insert("recovered".into(), true.into());
    }
    Event::from_json(&Value::Object(object)).map_err(|e| e.to_string())
}

pub fn move_record(m: &MoveRecord) -> pb::Move {
    pb::Move {
        ply: m.ply,
        side: side(m.side),
        san: m.san.clone(),
        uci: m.uci.clone(),
        t: m.t,
        recovered: m.recovered,
    }
}

/// An incident as the service names it: `id` is unique across the store.
pub fn incident(game_id: &str, id: String, incident: &Incident) -> pb::Incident {
    pb::Incident {
        id,
        ply: incident.ply,
        side: side(incident.side),
        kind: incident.kind.name().into(),
        article: incident.article.into(),
        squares: incident.squares.clone(),
        t: incident.t,
        claimable: incident.claimable,
        detail: incident.detail.clone(),
        game_id: game_id.into(),
        touches: incident
            .touches
            .iter()
            .map(|t| pb::Touch {
                square: t.square.clone(),
                piece: t.piece.clone(),
                t: t.t,
            })
            .collect(),
        played: incident.played.clone().unwrap_or_default(),
        ..Default::default()
    }
}

/// A stored incident in the rules engine's terms, for the PGN.
pub fn incident_back(i: &pb::Incident) -> Option<Incident> {
    Some(Incident {
        id: i.id.clone(),
        ply: i.ply,
        side: if i.side == pb::Side::Black as i32 {
            Side::Black
        } else {
            Side::White
        },
        kind: IncidentKind::from_name(&i.kind)?,
        article: article(&i.article)?,
        squares: i.squares.clone(),
        t: i.t,
        claimable: i.claimable,
        detail: i.detail.clone(),
        touches: Vec::new(),
        played: None,
        clip: None,
    })
}
