//! The service's web face (`referee serve --http ADDR`): the arbiter's
//! panel, the streamers' overlay, PGN feeds for broadcast sites, the JSON
//! and live updates the pages use, evidence (pictures, clips and each
//! incident's printable report), and `/metrics`.
//! Every asset is served from the binary; nothing comes from elsewhere.
//!
//! Reading needs a viewer (a bearer header, or `?token=` where a page
//! cannot set one); deciding and correcting need an arbiter's bearer token.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, FromRequestParts, Path, Query};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Status};

use crate::auth::{Holder, Need};
use crate::json::{game_json, update_json, verdict_json};
use crate::service::RefereeService;

type Shared = Arc<RefereeService>;
type Params = Query<HashMap<String, String>>;

const PANEL: &str = include_str!("../web/panel.html");
const OVERLAY: &str = include_str!("../web/overlay.html");
const BOARD_JS: &str = include_str!("../web/board.js");
const PANEL_JS: &str = include_str!("../web/panel.js");
const CLIP_JS: &str = include_str!("../web/clip.js");
const OVERLAY_JS: &str = include_str!("../web/overlay.js");
const STYLE: &str = include_str!("../web/style.css");

/// The routes, over the service's state.
pub fn router(service: Shared) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PANEL) }))
        .route("/overlay", get(|| async { Html(OVERLAY) }))
        .route(
            "/assets/board.js",
            get(|| async { asset(BOARD_JS, "text/javascript") }),
        )
        .route(
            "/assets/panel.js",
            get(|| async { asset(PANEL_JS, "text/javascript") }),
        )
        .route(
            "/assets/clip.js",
            get(|| async { asset(CLIP_JS, "text/javascript") }),
        )
        .route(
            "/assets/overlay.js",
            get(|| async { asset(OVERLAY_JS, "text/javascript") }),
        )
        .route(
            "/assets/style.css",
            get(|| async { asset(STYLE, "text/css") }),
        )
        .route("/api/status", get(status))
        .route("/api/games", get(games))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/updates", get(updates))
        .route("/api/games/{id}/correction", post(correct))
        .route("/api/incidents/{id}/decision", post(decide))
        .route("/games/{file}", get(game_pgn))
        .route("/rounds/{file}", get(round_pgn))
        .route("/evidence/{folder}/{name}", get(evidence))
        .route("/incidents/{id}/report", get(report))
        .route("/metrics", get(metrics))
        .with_state(service)
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// A refusal as HTTP: the gRPC code's counterpart and its message.
struct Refused(Status);

impl From<Status> for Refused {
    fn from(status: Status) -> Self {
        Refused(status)
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let code = match self.0.code() {
            Code::NotFound => StatusCode::NOT_FOUND,
            Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => {
                StatusCode::BAD_REQUEST
            }
            Code::Unauthenticated => StatusCode::UNAUTHORIZED,
            Code::PermissionDenied => StatusCode::FORBIDDEN,
            Code::AlreadyExists => StatusCode::CONFLICT,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (code, axum::Json(json!({"error": self.0.message()}))).into_response()
    }
}

/// Who calls, and the service they call: every handler's first argument.
struct Caller {
    service: Shared,
    headers: HeaderMap,
    peer: SocketAddr,
    /// `?token=`, for pages that cannot set a header (EventSource, img):
    /// on reading requests only. A request that changes the record
    /// (a decision, a correction) carries its token in a header, never in
    /// a URL that logs and browser histories keep.
    token: Option<String>,
}

impl FromRequestParts<Shared> for Caller {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, service: &Shared) -> Result<Self, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            // Unknown: not loopback, so refused unless a token allows it.
            .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |c| c.0);
        let reading = matches!(parts.method, Method::GET | Method::HEAD);
        let token = reading
            .then(|| parts.uri.query().and_then(token_in_query))
            .flatten();
        Ok(Self {
            service: service.clone(),
            headers: parts.headers.clone(),
            peer,
            token,
        })
    }
}

/// The `token` parameter of a query string.
fn token_in_query(query: &str) -> Option<String> {
    Query::<HashMap<String, String>>::try_from_uri(&format!("/?{query}").parse().ok()?)
        .ok()
        .and_then(|Query(params)| params.get("token").cloned())
}

impl Caller {
    /// The caller, if allowed what the call needs.
    fn needs(&self, need: Need) -> Result<Holder, Refused> {
        Ok(self.service.authorize_http(
            &self.headers,
            self.token.as_deref(),
            Some(self.peer),
            need,
        )?)
    }
}

/// What the service cannot see (`not_seen`, one line a model it runs
/// without), for the panel's banner.
async fn status(who: Caller) -> Result<Response, Refused> {
    who.needs(Need::Viewer)?;
    Ok(axum::Json(json!({"not_seen": who.service.not_seen()})).into_response())
}

async fn games(who: Caller) -> Result<Response, Refused> {
    let service = &who.service;
    who.needs(Need::Viewer)?;
    let list: Vec<_> = service
        .game_list()
        .iter()
        .map(|g| {
            let mut value = game_json(g);
            if let Ok(verdict) = service.verdict_of(&g.id) {
                value["fen"] = json!(verdict.fen);
                value["open_incidents"] = json!(
                    verdict
                        .incidents
                        .iter()
                        .filter(|i| i.decision.is_empty())
                        .count()
                );
                value["last_move"] = json!(verdict.moves.last().map(|m| m.uci.clone()));
            }
            value
        })
        .collect();
    Ok(axum::Json(list).into_response())
}

async fn game(who: Caller, Path(id): Path<String>) -> Result<Response, Refused> {
    let service = &who.service;
    who.needs(Need::Viewer)?;
    Ok(axum::Json(verdict_json(&service.verdict_of(&id)?)).into_response())
}

/// Server-sent events: each stored update as it is stored, from `?from=SEQ`.
async fn updates(
    who: Caller,
    Path(id): Path<String>,
    Query(params): Params,
) -> Result<Response, Refused> {
    let service = &who.service;
    who.needs(Need::Viewer)?;
    let from = params.get("from").and_then(|v| v.parse().ok()).unwrap_or(0);
    let updates = service.updates(&id, from)?;
    let events = ReceiverStream::new(updates).map_while(|update| {
        let update = update.ok()?;
        Some(Ok::<_, Infallible>(
            Event::default()
                .id(update.seq.to_string())
                .data(update_json(&update).to_string()),
        ))
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

#[derive(Debug, serde::Deserialize)]
struct Decision {
    decision: String,
    #[serde(default)]
    note: String,
}

async fn decide(
    who: Caller,
    Path(id): Path<String>,
    axum::Json(asked): axum::Json<Decision>,
) -> Result<Response, Refused> {
    let arbiter = who.needs(Need::Arbiter)?;
    let service = &who.service;
    let incident = service
        .decide(&id, &asked.decision, &asked.note, &arbiter)
        .await?;
    Ok(axum::Json(crate::json::incident_json(&incident)).into_response())
}

#[derive(Debug, serde::Deserialize)]
struct Correction {
    ply: u32,
    uci: String,
    #[serde(default)]
    note: String,
}

async fn correct(
    who: Caller,
    Path(id): Path<String>,
    axum::Json(asked): axum::Json<Correction>,
) -> Result<Response, Refused> {
    let arbiter = who.needs(Need::Arbiter)?;
    let service = &who.service;
    let verdict = service
        .correct(&id, asked.ply, &asked.uci, &asked.note, &arbiter)
        .await?;
    Ok(axum::Json(verdict_json(&verdict)).into_response())
}

/// A PGN with an ETag (a hash of its text); `If-None-Match` gets 304.
fn pgn_response(headers: &HeaderMap, text: String) -> Response {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let etag = format!("\"{:016x}\"", hasher.finish());
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag));
    let tag = HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"\""));
    if matches {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, tag)]).into_response();
    }
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/x-chess-pgn"),
            ),
            (header::ETAG, tag),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        text,
    )
        .into_response()
}

/// `/games/{id}.pgn`.
async fn game_pgn(who: Caller, Path(file): Path<String>) -> Result<Response, Refused> {
    let service = &who.service;
    who.needs(Need::Viewer)?;
    let id = file
        .strip_suffix(".pgn")
        .ok_or_else(|| Status::not_found("games are served as /games/ID.pgn"))?;
    Ok(pgn_response(&who.headers, service.verdict_of(id)?.pgn))
}

/// `/rounds/{round}.pgn[?event=E]`: every board of a round in one PGN.
async fn round_pgn(
    who: Caller,
    Path(file): Path<String>,
    Query(params): Params,
) -> Result<Response, Refused> {
    let service = &who.service;
    who.needs(Need::Viewer)?;
    let round = file
        .strip_suffix(".pgn")
        .ok_or_else(|| Status::not_found("rounds are served as /rounds/ROUND.pgn"))?;
    let event = params.get("event");
    let mut text = String::new();
    for game in service.game_list() {
        if game.round == round && event.is_none_or(|e| *e == game.event) {
            text.push_str(service.verdict_of(&game.id)?.pgn.trim_end());
            text.push_str("\n\n");
        }
    }
    Ok(pgn_response(&who.headers, text))
}

async fn evidence(
    who: Caller,
    Path((folder, name)): Path<(String, String)>,
) -> Result<Response, Refused> {
    let service = &who.service;
    who.needs(Need::Viewer)?;
    let bytes = service.evidence(&format!("{folder}/{name}"))?;
    // Frames are JPEG; a clip's manifest is JSON.
    let kind = if name.ends_with(".json") {
        "application/json"
    } else {
        "image/jpeg"
    };
    Ok(([(header::CONTENT_TYPE, kind)], bytes).into_response())
}

/// An incident's report, a page that prints (its pictures fetched with
/// the token the page was opened with).
async fn report(who: Caller, Path(id): Path<String>) -> Result<Response, Refused> {
    who.needs(Need::Viewer)?;
    let (verdict, incident, clip) = who.service.incident_report(&id)?;
    let token = who.token.as_deref().map_or(String::new(), |t| {
        let t: String = form_urlencoded::byte_serialize(t.as_bytes()).collect();
        format!("?token={t}")
    });
    Ok(Html(crate::report::page(
        &verdict,
        &incident,
        clip.as_ref(),
        &token,
    ))
    .into_response())
}

async fn metrics(who: Caller) -> Result<Response, Refused> {
    let service = &who.service;
    who.needs(Need::Viewer)?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        service.metrics(),
    )
        .into_response())
}
