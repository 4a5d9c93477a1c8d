//! The PGN the referee writes reads back through pgn-reader: same tags,
//! same moves (legal when replayed), the incidents' comments, the result.
//! Over random games with clocks and over every data-driven case.

mod support;

use std::ops::ControlFlow;
use std::path::PathBuf;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use referee_rules::pgn::Tags;
use referee_rules::{Action, Referee, Verdict, arbitrate_log};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// What pgn-reader saw in one game.
#[derive(Debug, Default)]
struct ReadBack {
    tags: Vec<(String, String)>,
    sans: Vec<String>,
    comments: Vec<String>,
    outcome: Option<String>,
}

struct Collect;

impl Visitor for Collect {
    type Tags = ReadBack;
    type Movetext = ReadBack;
    type Output = ReadBack;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(ReadBack::default())
    }

    fn tag(
        &mut self,
        tags: &mut ReadBack,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let name = String::from_utf8_lossy(name).into_owned();
        tags.tags
            .push((name, value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: ReadBack) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, movetext: &mut ReadBack, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        movetext.sans.push(san_plus.to_string());
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut ReadBack,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        // Long comments wrap across lines: compare them word by word.
        let text = String::from_utf8_lossy(comment.as_bytes());
        movetext
            .comments
            .push(text.split_whitespace().collect::<Vec<_>>().join(" "));
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        movetext: &mut ReadBack,
        outcome: pgn_reader::Outcome,
    ) -> ControlFlow<Self::Output> {
        movetext.outcome = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: ReadBack) -> Self::Output {
        movetext
    }
}

fn read_back(pgn: &str) -> ReadBack {
    Reader::new(pgn.as_bytes())
        .read_game(&mut Collect)
        .expect("reads")
        .expect("one game")
}

fn check(verdict: &Verdict, label: &str) {
    let back = read_back(&verdict.pgn);
    let tag = |name: &str| {
        back.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    for name in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
        assert!(
            tag(name).is_some(),
            "{label}: no {name} tag\n{}",
            verdict.pgn
        );
    }
    assert_eq!(tag("Result"), Some(verdict.result.as_str()), "{label}");
    assert_eq!(
        back.outcome.as_deref(),
        Some(verdict.result.as_str()),
        "{label}"
    );
    let sans: Vec<&str> = verdict.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(back.sans, sans, "{label}\n{}", verdict.pgn);
    // Replayed from the FEN tag (or the start), every move is legal.
    let mut pos: Chess = match tag("FEN") {
        Some(fen) => fen
            .parse::<Fen>()
            .expect("FEN tag parses")
            .into_position(CastlingMode::Standard)
            .expect("legal"),
        None => Chess::default(),
    };
    for san in &back.sans {
        let m = san
            .parse::<SanPlus>()
            .expect("SAN")
            .san
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{label}: {san}: {e}"));
        pos.play_unchecked(m);
    }
    for incident in &verdict.incidents {
        assert!(
            back.comments
                .iter()
                .any(|c| c.contains(&incident.detail.replace('}', ")"))),
            "{label}: no comment for {}\n{}",
            incident.detail,
            verdict.pgn
        );
    }
}

#[test]
fn random_games_with_clock_times_read_back() {
    for seed in 0..200 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = support::random_game(&mut rng);
        let mut script = support::Script::new();
        let mut pos = Chess::default();
        for (ply, (m, _)) in game.iter().enumerate() {
            script.play(&mut rng, &pos, *m);
            script.push(Action::Clock).remaining = Some(5400.0 - ply as f64 * 7.5);
            pos.play_unchecked(*m);
        }
        let tags = Tags(vec![
            ("White".into(), "Smith, J.".into()),
            ("Event".into(), "Club \"A\" cup".into()),
        ]);
        let mut referee = Referee::new(Chess::default(), tags);
        for event in &script.events {
            referee.apply(event).expect("consistent");
        }
        let verdict = referee.verdict();
        check(&verdict, &format!("game {seed}"));
        assert!(verdict.pgn.contains("[%clk 1:30:00]"), "game {seed}");
        assert!(
            verdict.pgn.contains("[Event \"Club \\\"A\\\" cup\"]"),
            "game {seed}"
        );
    }
}

#[test]
fn every_data_case_reads_back() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/arbitrate");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("cases") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|ext| ext != "jsonl") {
            continue;
        }
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("expected.json")).expect("expected"),
        )
        .expect("json");
        let fen = expected["fen"].as_str();
        let log = std::fs::read_to_string(&path).expect("log");
        let verdict = arbitrate_log(&log, fen, Tags::default()).expect("case runs");
        check(&verdict, &path.display().to_string());
        checked += 1;
    }
    assert!(checked >= 60);
}
