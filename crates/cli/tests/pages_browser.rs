//! The web pages in real headless Chromium (Debian's `chromium`, driven
//! through the DevTools protocol): the arbiter's panel shows the incident of
//! a streamed game, refuses a viewer's decision and records an arbiter's
//! (in the store and in `referee game`); the overlay follows a game as its
//! moves are made. Screenshots land in `target/screenshots/` (the ones in
//! `docs/` are copies).

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::page::ScreenshotParams;
use common::{corners, free_port, json, referee_ok, render, serve};
use tokio_stream::StreamExt;

const ARBITER: &str = "arbiter-anna-7c1e";
const VIEWER: &str = "viewer-tv-9b22";
const CAMERA: &str = "camera-boards-51d0";

fn chromium() -> PathBuf {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("Chromium is installed (scripts/setup installs Debian's chromium)")
}

/// The wall-clock time (ms since the epoch) at which a gRPC watcher hears
/// of each move of `game`, until its second move.
async fn moves_told(url: String, game: &str) -> std::collections::HashMap<String, f64> {
    use referee_proto::referee_client::RefereeClient;
    let channel = tonic::transport::Channel::from_shared(url)
        .expect("url")
        .connect()
        .await
        .expect("connects");
    let mut client = RefereeClient::with_interceptor(channel, |mut request: tonic::Request<()>| {
        request.metadata_mut().insert(
            "authorization",
            format!("Bearer {VIEWER}").parse().expect("ascii"),
        );
        Ok(request)
    });
    let mut told = std::collections::HashMap::new();
    let started = Instant::now();
    let mut updates = loop {
        let asked = referee_proto::WatchGameRequest {
            game_id: game.into(),
            from_seq: 0,
        };
        match client.watch_game(asked).await {
            Ok(stream) => break stream.into_inner(),
            Err(_) if started.elapsed() < Duration::from_secs(30) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(status) => panic!("cannot watch {game}: {status}"),
        }
    };
    while told.len() < 2 {
        let Ok(Some(update)) = updates.message().await else {
            break;
        };
        if let Some(referee_proto::update::What::Move(m)) = update.what {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("clock")
                .as_secs_f64();
            told.insert(m.san, now * 1e3);
        }
    }
    told
}

/// A plain HTTP/1.1 GET on 127.0.0.1: status line, headers, body.
fn get(port: u16, path: &str, if_none_match: Option<&str>) -> (String, String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    let condition = if_none_match.map_or(String::new(), |tag| format!("If-None-Match: {tag}\r\n"));
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{condition}Connection: close\r\n\r\n"
    )
    .expect("writes");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("reads");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    (status.to_string(), headers.to_lowercase(), body.to_string())
}

/// A plain HTTP/1.1 POST of JSON on 127.0.0.1: the status line.
fn post(port: u16, path: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("writes");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("reads");
    answer.lines().next().unwrap_or_default().to_string()
}

/// Evaluates `script` in the page until it gives `true`.
async fn until(page: &chromiumoxide::Page, script: &str, what: &str) {
    let started = Instant::now();
    loop {
        let done = page
            .evaluate(script)
            .await
            .ok()
            .and_then(|v| v.into_value::<bool>().ok())
            .unwrap_or(false);
        if done {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "waited 30 s for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn number(page: &chromiumoxide::Page, script: &str) -> f64 {
    page.evaluate(script)
        .await
        .expect("evaluates")
        .into_value::<f64>()
        .unwrap_or(f64::NAN)
}

/// The incident's clip in the panel: it opens on its first touch, steps a
/// frame at a time, plays to its end, and the board beside it numbers the
/// touched square.
async fn clip_plays(panel: &chromiumoxide::Page) {
    let clip = "document.querySelector('.incident .clip')";
    until(
        panel,
        &format!(
            "{clip}.dataset.frames > 0 && document.querySelector('.clip-frame').naturalWidth > 0"
        ),
        "the clip",
    )
    .await;
    let frames = number(panel, &format!("Number({clip}.dataset.frames)")).await;
    let first = number(panel, &format!("Number({clip}.dataset.first)")).await;
    let last = number(panel, &format!("Number({clip}.dataset.last)")).await;
    let marks = text(panel, &format!("{clip}.dataset.marks")).await;
    eprintln!(
        "panel clip: {frames} frames, {first} s to {last} s, touches marked on frames {marks}"
    );
    assert!(
        frames >= 10.0 && last > first && last - first <= 8.0,
        "{frames} frames, {first}-{last} s"
    );
    // release_final: the fingertip on g8 (the truth's touch from 3.05 s), then Nf6 moved on.
    let mark: f64 = marks
        .split(',')
        .next()
        .and_then(|m| m.parse().ok())
        .expect("a touch marked");
    assert_eq!(
        number(panel, &format!("Number({clip}.dataset.frame)")).await,
        mark
    );
    let shown = number(
        panel,
        "Number(document.querySelectorAll('.clip-marks .mark')[0].dataset.frame)",
    )
    .await;
    assert_eq!(shown, mark, "the touch's mark on the time line");
    let square = text(panel, "[...document.querySelectorAll('.clip-side .touch-number')].map(n => n.dataset.square + n.textContent).join(' ')").await;
    assert_eq!(square, "g81", "the touched square numbered on the diagram");
    panel
        .evaluate("document.querySelector('.clip .on').click(); true")
        .await
        .expect("clicks");
    assert_eq!(
        number(panel, &format!("Number({clip}.dataset.frame)")).await,
        mark + 1.0
    );
    panel.evaluate("document.querySelector('.clip .back').click(); document.querySelector('.clip .back').click(); true").await.expect("clicks");
    assert_eq!(
        number(panel, &format!("Number({clip}.dataset.frame)")).await,
        mark - 1.0
    );
    let time = text(panel, "document.querySelector('.clip-time').textContent").await;
    assert!(
        time.contains(&format!("frame {} of {frames}", mark)),
        "{time}"
    );
    panel
        .evaluate("document.querySelector('.clip .play').click(); true")
        .await
        .expect("plays");
    until(panel, &format!("Number({clip}.dataset.frame) === {} && document.querySelector('.clip .play').textContent === 'Play'", frames - 1.0), "the clip played to its end").await;
}

/// The incident's report, opened from the panel's link and printed to PDF
/// by Chromium: one page, with the players, the round, the touches, what
/// was played and the arbiter's decision; the touch at the time the
/// fingertip came on g8, `touched` the truth's first frame of it.
async fn report_prints(browser: &Browser, base: &str, shots: &std::path::Path, touched: f64) {
    use chromiumoxide::cdp::browser_protocol::page::PrintToPdfParams;
    let report = browser
        .new_page(format!("{base}/incidents/1-1-1/report?token={VIEWER}"))
        .await
        .expect("report opens");
    until(&report, "[...document.images].length > 0 && [...document.images].every(i => i.complete && i.naturalWidth > 0)", "the touch frames").await;
    let pdf = report
        .pdf(PrintToPdfParams::default())
        .await
        .expect("prints");
    let path = shots.join("report.pdf");
    for old in ["report-1.png", "report-2.png"] {
        let _ = std::fs::remove_file(shots.join(old));
    }
    std::fs::write(&path, &pdf).expect("PDF written");
    let pages = Command::new("pdftoppm")
        .args(["-png", "-r", "60"])
        .arg(&path)
        .arg(shots.join("report"))
        .status()
        .expect("pdftoppm runs (scripts/setup installs poppler-utils)");
    assert!(pages.success());
    assert!(shots.join("report-1.png").exists(), "page 1");
    assert!(
        !shots.join("report-2.png").exists(),
        "the report fits one page"
    );
    let words = Command::new("pdftotext")
        .arg("-layout")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext runs");
    let words = String::from_utf8_lossy(&words.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for field in [
        "release final (art. 4.7)",
        "Round 3",
        "White Ann",
        "Black Bo",
        "Board 1",
        "1. Ng8 touched at ",
        "Nh6 was played",
        "upheld by Anna",
        "Note: seen on the evidence",
        "Open: White may still claim",
    ] {
        assert!(words.contains(field), "{field} not in the report: {words}");
    }
    // The fingertip is read on the piece as the hand comes down on it, a
    // frame or two before the truth's contact.
    let at: f64 = words
        .split("1. Ng8 touched at ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|t| t.parse().ok())
        .expect("the touch's time");
    assert!(
        (touched - 0.15..=touched + 0.05).contains(&at),
        "Ng8 touched at {at} s, the truth's contact from {touched} s"
    );
}

/// When the truth's fingertip first touches `square`.
fn first_touched(truth: &serde_json::Value, square: &str) -> f64 {
    truth["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .find(|frame| {
            frame["squares"]
                .as_array()
                .expect("squares")
                .iter()
                .any(|s| s["square"] == square && s["touch"] == true)
        })
        .and_then(|frame| frame["t"].as_f64())
        .expect("a frame touching the square")
}

async fn text(page: &chromiumoxide::Page, script: &str) -> String {
    page.evaluate(script)
        .await
        .expect("evaluates")
        .into_value::<String>()
        .unwrap_or_default()
}

#[test]
fn the_panel_and_the_overlay_work_in_a_real_browser() {
    let (dir, truth) = render("release_final", "pages");
    let video = dir.join("video.avi");
    let corners = corners(&truth);
    let tokens = dir.join("tokens");
    std::fs::write(
        &tokens,
        format!("{ARBITER} role=arbiter name=Anna\n{VIEWER} role=viewer\n{CAMERA} role=camera boards=1,2\n"),
    )
    .expect("tokens");
    let web = free_port();
    let service = serve(
        &dir.join("referee.db"),
        free_port(),
        &[
            "--auth",
            tokens.to_str().expect("utf-8"),
            "--http",
            &format!("127.0.0.1:{web}"),
        ],
    );
    referee_ok(&[
        "ingest",
        "--server",
        &service.url,
        "--token",
        CAMERA,
        "--board",
        "1",
        "--white",
        "Ann",
        "--black",
        "Bo",
        "--round",
        "3",
        "--corners",
        &corners,
        "--fast",
        "--quiet",
        video.to_str().expect("utf-8"),
    ]);
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&shots).expect("screenshots folder");

    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let config = BrowserConfig::builder()
            .chrome_executable(chromium())
            .no_sandbox()
            .window_size(1280, 1000)
            .user_data_dir(dir.join("chromium-profile"))
            .build()
            .expect("browser config");
        let (mut browser, mut handler) = Browser::launch(config).await.expect("Chromium starts");
        let events = tokio::spawn(async move { while handler.next().await.is_some() {} });
        let base = format!("http://127.0.0.1:{web}");

        // The panel, as a viewer: the incident is there, with its evidence.
        let panel = browser
            .new_page(format!("{base}/?token={VIEWER}"))
            .await
            .expect("panel opens");
        until(&panel, "document.querySelectorAll('.incident').length === 1", "the incident").await;
        let card = text(&panel, "document.querySelector('.incident').innerText").await;
        assert!(card.contains("release final (art. 4.7)"), "{card}");
        assert!(card.contains("Art. 4.7: A piece released"), "{card}");
        until(
            &panel,
            "[...document.querySelectorAll('.incident .evidence img')].some(i => i.complete && i.naturalWidth > 0)",
            "an evidence picture",
        )
        .await;
        until(&panel, "document.querySelectorAll('.boards .board text.piece').length === 32", "the board").await;
        clip_plays(&panel).await;

        // A viewer's token cannot decide.
        panel
            .evaluate("document.getElementById('token').value = 'viewer-tv-9b22'; document.querySelector('.incident button[value=dismissed]').click(); true")
            .await
            .expect("clicks");
        until(&panel, "document.querySelector('.incident .error').textContent.includes('Refused')", "the refusal").await;
        let undecided = json(&["game", "1-1", "--server", &service.url, "--token", VIEWER, "--json"]);
        assert!(undecided["incidents"][0].get("decision").is_none(), "a viewer decided");

        // The arbiter's token decides.
        panel
            .evaluate(
                format!(
                    "const box = document.getElementById('token'); box.value = '{ARBITER}'; box.dispatchEvent(new Event('change'));
                     document.querySelector('.incident input[name=note]').value = 'seen on the evidence';
                     document.querySelector('.incident button[value=upheld]').click(); true"
                )
                .as_str(),
            )
            .await
            .expect("clicks");
        until(&panel, "document.querySelectorAll('.incident.decided').length === 1", "the decision shown").await;
        let decided = json(&["game", "1-1", "--server", &service.url, "--token", VIEWER, "--json"]);
        assert_eq!(decided["incidents"][0]["decision"], "upheld");
        assert_eq!(decided["incidents"][0]["decided_by"], "Anna");
        assert_eq!(decided["incidents"][0]["note"], "seen on the evidence");
        panel
            .save_screenshot(ScreenshotParams::builder().full_page(true).build(), shots.join("panel.png"))
            .await
            .expect("panel screenshot");
        report_prints(&browser, &base, &shots, first_touched(&truth, "g8")).await;

        // The overlay follows a game streamed at its pace on board 2.
        let mut camera = Command::new(env!("CARGO_BIN_EXE_referee"))
            .args([
                "ingest", "--server", &service.url, "--token", CAMERA, "--board", "2", "--white",
                "Cy", "--black", "Di", "--corners", &corners, "--quiet",
            ])
            .arg(&video)
            .stdout(Stdio::null())
            .spawn()
            .expect("ingest starts");
        let overlay = browser
            .new_page(format!("{base}/overlay?game=2-1&banner=1&token={VIEWER}"))
            .await
            .expect("overlay opens");
        // When each move shows on the overlay, by the page's clock…
        overlay
            .evaluate(
                "window.shown = {}; new MutationObserver(() => {
                   for (const san of document.getElementById('moves').textContent.split(' '))
                     if (!(san in window.shown)) window.shown[san] = Date.now();
                 }).observe(document.getElementById('moves'), {childList: true, characterData: true, subtree: true}); true",
            )
            .await
            .expect("observer");
        // … and when the service tells a watcher, by the same machine's clock.
        let told = tokio::spawn(moves_told(service.url.clone(), "2-1"));
        until(&overlay, "document.getElementById('moves').textContent.includes('e4')", "the first move").await;
        let before = text(&overlay, "document.getElementById('board').dataset.lastMove").await;
        assert_eq!(before, "e4", "the last move marked after 1. e4");
        until(&overlay, "document.getElementById('moves').textContent.includes('Nh6')", "the second move").await;
        assert_eq!(text(&overlay, "document.getElementById('board').dataset.lastMove").await, "Nh6");
        until(&overlay, "document.querySelectorAll('.board rect.marked').length === 2", "the move marked").await;
        until(&overlay, "getComputedStyle(document.getElementById('banner')).display === 'block'", "the banner").await;
        let private = text(&overlay, "[...document.querySelectorAll('img, a, video')].map(e => e.src || e.href).join(' ')").await;
        assert!(!private.contains("/evidence/"), "the overlay shows evidence: {private}");
        let background = text(&overlay, "getComputedStyle(document.body).backgroundColor").await;
        assert_eq!(background, "rgba(0, 0, 0, 0)", "the overlay is transparent");
        overlay
            .save_screenshot(ScreenshotParams::builder().omit_background(true).build(), shots.join("overlay.png"))
            .await
            .expect("overlay screenshot");
        assert!(camera.wait().expect("ingest ends").success());
        let told = told.await.expect("watcher");
        for san in ["e4", "Nh6"] {
            let shown = overlay
                .evaluate(format!("window.shown['{san}'] || 0").as_str())
                .await
                .expect("evaluates")
                .into_value::<f64>()
                .unwrap_or(0.0);
            eprintln!(
                "overlay: {san} shown {:.0} ms after the service told a gRPC watcher",
                shown - told.get(san).copied().unwrap_or(f64::NAN)
            );
        }
        browser.close().await.expect("closes");
        let _ = events.await;
    });

    // The PGN feed: the round's games in one file, with an ETag that holds.
    let path = format!("/rounds/3.pgn?token={VIEWER}");
    let (status, headers, body) = get(web, &path, None);
    assert!(status.contains("200"), "{status}");
    assert!(
        body.contains("[Round \"3\"]") && body.contains("1. e4 Nh6"),
        "{body}"
    );
    let etag = headers
        .lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .expect("an ETag")
        .trim()
        .to_string();
    let (again, _, _) = get(web, &path, Some(&etag));
    assert!(again.contains("304"), "{again}");
    let (refused, _, _) = get(web, "/rounds/3.pgn", None);
    assert!(refused.contains("401"), "no token: {refused}");
    // A token in the URL opens pages, never a change to the record.
    let refused = post(
        web,
        &format!("/api/incidents/1-1-1/decision?token={ARBITER}"),
        r#"{"decision":"dismissed","note":"by URL"}"#,
    );
    assert!(
        refused.contains("401"),
        "a decision by a URL's token: {refused}"
    );
    drop(service);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_panel_says_what_a_service_without_its_models_cannot_see() {
    let dir = common::scratch("pages-no-models");
    std::fs::create_dir_all(&dir).expect("scratch");
    let web = free_port();
    let service = common::serve_with_env(
        &dir.join("referee.db"),
        free_port(),
        &["--allow-no-models", "--http", &format!("127.0.0.1:{web}")],
        &[("ORT_DYLIB_PATH", "/nonexistent/libonnxruntime.so.1")],
    );
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let config = BrowserConfig::builder()
            .chrome_executable(chromium())
            .no_sandbox()
            .user_data_dir(dir.join("chromium-profile"))
            .build()
            .expect("browser config");
        let (mut browser, mut handler) = Browser::launch(config).await.expect("Chromium starts");
        let events = tokio::spawn(async move { while handler.next().await.is_some() {} });
        let panel = browser
            .new_page(format!("http://127.0.0.1:{web}/"))
            .await
            .expect("panel opens");
        until(
            &panel,
            "!document.getElementById('not-seen').hidden",
            "the banner",
        )
        .await;
        let banner = text(&panel, "document.getElementById('not-seen').innerText").await;
        assert!(banner.contains("cannot see everything"), "{banner}");
        assert!(
            banner.contains("no detector: no touch can be seen"),
            "{banner}"
        );
        browser.close().await.expect("closes");
        let _ = events.await;
    });
    drop(service);
    let _ = std::fs::remove_dir_all(dir);
}
