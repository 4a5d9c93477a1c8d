//! Scenario files (contracts.md §3): plain text, one command a line, `#`
//! starts a comment. The side to move acts unless `by` says otherwise.

use shakmaty::uci::UciMove;
use shakmaty::{Color, Role, Square};

use crate::ScenarioError;

/// The camera and the scene, `camera key=value…`; defaults are a plain overhead view.
#[derive(Debug, Clone, PartialEq)]
pub struct Camera {
    pub seed: u64,
    pub width: u32,
    pub height: u32,
    pub fps: f64,
    /// Degrees.
    pub tilt: f64,
    pub yaw: f64,
    pub roll: f64,
    /// Relative brightness, 1 is even daylight.
    pub light: f64,
    /// 0..1.
    pub noise: f64,
    pub blur: f64,
    pub occlusion: f64,
    /// How much of the image the board fills, against the default (an
    /// extension of §3: the camera's height).
    pub zoom: f64,
    /// Slow drift of tilt and yaw, degrees a minute (extension).
    pub drift: f64,
    /// When the camera is bumped, seconds (extension): a sudden turn of a few degrees.
    pub bump: Option<f64>,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            seed: 0,
            width: 640,
            height: 480,
            fps: 20.0,
            tilt: 0.0,
            yaw: 0.0,
            roll: 0.0,
            light: 1.0,
            noise: 0.0,
            blur: 0.0,
            occlusion: 0.0,
            zoom: 1.0,
            drift: 0.0,
            bump: None,
        }
    }
}

/// One scenario command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// A complete move made the ordinary way.
    Move(UciMove),
    /// The side that just moved presses its clock.
    Clock,
    Touch(Square),
    /// The hand passes over the squares in turn without contact.
    Hover(Hover),
    Adjust(Square),
    DeclareAdjust,
    Lift(Square),
    Release(Square),
    Capture(Square),
    Add(Square, Role),
    /// Nobody's hand over the board, seconds.
    Wait(f64),
    /// The move made with two hands.
    TwoHands(UciMove),
}

/// A hand passing over pieces without touching them.
#[derive(Debug, Clone, PartialEq)]
pub struct Hover {
    /// The squares it passes over, in order (at least one).
    pub squares: Vec<Square>,
    /// Height of the fingertip over the board, in squares (`None`: the
    /// renderer's usual height, well above the tallest piece).
    pub height: Option<f64>,
    /// How long the pass takes, seconds (`None`: half a second to a second
    /// and a half, and 0.4 s more for each square after the first).
    pub seconds: Option<f64>,
}

/// Lowest a hover may be asked to pass (squares over the board); the
/// choreography also keeps it [`HOVER_CLEARANCE`] over the head of every
/// piece on the squares it passes.
pub const HOVER_LOWEST: f64 = 0.9;

/// How far a hover's fingertip stays over the head of a piece it passes (squares).
pub const HOVER_CLEARANCE: f64 = 0.2;

/// A command with the line it came from and whose hand does it.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub line: usize,
    /// `None`: the side to move.
    pub by: Option<Color>,
    pub command: Command,
}

/// A parsed scenario.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scenario {
    /// `None`: the standard starting position.
    pub start_fen: Option<String>,
    /// The line of the `start` command (0 when there is none).
    pub start_line: usize,
    pub tags: Vec<(String, String)>,
    pub camera: Camera,
    pub steps: Vec<Step>,
}

impl Scenario {
    /// Parses a scenario file's text.
    pub fn parse(text: &str) -> Result<Self, ScenarioError> {
        let mut scenario = Scenario::default();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or_default().trim();
            if content.is_empty() {
                continue;
            }
            let words: Vec<&str> = content.split_whitespace().collect();
            let fail = |message: String| ScenarioError::new(line, message);
            match words[0] {
                "start" => {
                    if !scenario.steps.is_empty() {
                        return Err(fail("`start` must come before the first action".into()));
                    }
                    scenario.start_fen = parse_start(&words[1..]).map_err(fail)?;
                    scenario.start_line = line;
                }
                "tag" => {
                    let name = words
                        .get(1)
                        .ok_or_else(|| fail("`tag` needs a name and a value".into()))?;
                    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                        return Err(fail(format!("`{name}` is not a PGN tag name")));
                    }
                    scenario.tags.push((name.to_string(), words[2..].join(" ")));
                }
                "camera" => {
                    for setting in &words[1..] {
                        apply_camera(&mut scenario.camera, setting).map_err(fail)?;
                    }
                }
                "by" => {
                    let side = match words.get(1) {
                        Some(&"white") => Color::White,
                        Some(&"black") => Color::Black,
                        other => {
                            return Err(fail(format!(
                                "`by` needs white or black, got {}",
                                other.map_or("nothing".to_string(), |w| format!("`{w}`"))
                            )));
                        }
                    };
                    let command = parse_command(&words[2..]).map_err(fail)?;
                    scenario.steps.push(Step {
                        line,
                        by: Some(side),
                        command,
                    });
                }
                _ => {
                    let command = parse_command(&words).map_err(fail)?;
                    scenario.steps.push(Step {
                        line,
                        by: None,
                        command,
                    });
                }
            }
        }
        Ok(scenario)
    }
}

fn parse_start(words: &[&str]) -> Result<Option<String>, String> {
    match words {
        ["startpos"] => Ok(None),
        ["fen", fen @ ..] if !fen.is_empty() => Ok(Some(fen.join(" "))),
        _ => Err("expected `start startpos` or `start fen <FEN>`".into()),
    }
}

fn apply_camera(camera: &mut Camera, setting: &str) -> Result<(), String> {
    let (key, value) = setting
        .split_once('=')
        .ok_or_else(|| format!("camera setting `{setting}` is not key=value"))?;
    let number = |range: std::ops::RangeInclusive<f64>| -> Result<f64, String> {
        let v: f64 = value
            .parse()
            .map_err(|_| format!("camera {key}: `{value}` is not a number"))?;
        if range.contains(&v) {
            Ok(v)
        } else {
            Err(format!(
                "camera {key}: {v} is outside {}..{}",
                range.start(),
                range.end()
            ))
        }
    };
    match key {
        "seed" => {
            camera.seed = value
                .parse()
                .map_err(|_| format!("camera seed: `{value}` is not a whole number"))?
        }
        "size" => {
            let (w, h) = value
                .split_once('x')
                .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
                .filter(|&(w, h)| (64..=4096).contains(&w) && (64..=4096).contains(&h))
                .ok_or_else(|| format!("camera size: `{value}` is not WxH between 64 and 4096"))?;
            (camera.width, camera.height) = (w, h);
        }
        "fps" => camera.fps = number(1.0..=120.0)?,
        "tilt" => camera.tilt = number(-60.0..=60.0)?,
        "yaw" => camera.yaw = number(-180.0..=180.0)?,
        "roll" => camera.roll = number(-180.0..=180.0)?,
        "light" => camera.light = number(0.1..=3.0)?,
        "noise" => camera.noise = number(0.0..=1.0)?,
        "blur" => camera.blur = number(0.0..=1.0)?,
        "occlusion" => camera.occlusion = number(0.0..=1.0)?,
        "zoom" => camera.zoom = number(0.5..=1.2)?,
        "drift" => camera.drift = number(0.0..=30.0)?,
        "bump" => camera.bump = Some(number(0.0..=36000.0)?),
        other => {
            return Err(format!(
                "unknown camera setting `{other}` (seed, size, fps, tilt, yaw, roll, light, noise, blur, occlusion, zoom, drift, bump)"
            ));
        }
    }
    Ok(())
}

fn parse_command(words: &[&str]) -> Result<Command, String> {
    let square = |i: usize| -> Result<Square, String> {
        let word = words
            .get(i)
            .ok_or_else(|| format!("`{}` needs a square", words[0]))?;
        word.parse()
            .map_err(|_| format!("`{word}` is not a square a1..h8"))
    };
    let uci = |i: usize| -> Result<UciMove, String> {
        let word = words
            .get(i)
            .ok_or_else(|| format!("`{}` needs a move in UCI, like e2e4", words[0]))?;
        word.parse()
            .map_err(|_| format!("`{word}` is not a move in UCI, like e2e4"))
    };
    let expect_len = |n: usize, command: Command| -> Result<Command, String> {
        if words.len() == n {
            Ok(command)
        } else {
            Err(format!(
                "`{}` takes {} word(s) after it, got {}",
                words[0],
                n - 1,
                words.len() - 1
            ))
        }
    };
    let Some(&name) = words.first() else {
        return Err("expected a command".into());
    };
    match name {
        "move" => expect_len(2, Command::Move(uci(1)?)),
        "two-hands" => expect_len(2, Command::TwoHands(uci(1)?)),
        "clock" => expect_len(1, Command::Clock),
        "touch" => expect_len(2, Command::Touch(square(1)?)),
        "hover" => parse_hover(&words[1..]).map(Command::Hover),
        "adjust" => expect_len(2, Command::Adjust(square(1)?)),
        "lift" => expect_len(2, Command::Lift(square(1)?)),
        "release" => expect_len(2, Command::Release(square(1)?)),
        "capture" => expect_len(2, Command::Capture(square(1)?)),
        "declare" if words.get(1) == Some(&"adjust") => expect_len(2, Command::DeclareAdjust),
        "declare" => Err("only `declare adjust` can be declared".into()),
        "add" => {
            let role = match words.get(2).copied() {
                Some("Q" | "q") => Role::Queen,
                Some("R" | "r") => Role::Rook,
                Some("B" | "b") => Role::Bishop,
                Some("N" | "n") => Role::Knight,
                _ => return Err("`add` needs a square and a piece Q, R, B or N".into()),
            };
            expect_len(3, Command::Add(square(1)?, role))
        }
        "wait" => {
            let seconds: f64 = words
                .get(1)
                .and_then(|w| w.parse().ok())
                .filter(|s: &f64| s.is_finite() && *s >= 0.0 && *s <= 3600.0)
                .ok_or("`wait` needs seconds between 0 and 3600")?;
            expect_len(2, Command::Wait(seconds))
        }
        other => Err(format!(
            "unknown command `{other}` (start, tag, camera, move, clock, touch, hover, adjust, declare, lift, release, capture, add, wait, by, two-hands)"
        )),
    }
}

/// `hover <sq> [<sq>…] [height=H] [seconds=S]`.
fn parse_hover(words: &[&str]) -> Result<Hover, String> {
    let mut hover = Hover {
        squares: Vec::new(),
        height: None,
        seconds: None,
    };
    for word in words {
        let number = |value: &str, range: std::ops::RangeInclusive<f64>| {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| range.contains(v))
                .ok_or_else(|| {
                    format!(
                        "`{word}`: needs a number from {} to {}",
                        range.start(),
                        range.end()
                    )
                })
        };
        match word.split_once('=') {
            Some(("height", value)) => hover.height = Some(number(value, HOVER_LOWEST..=6.0)?),
            Some(("seconds", value)) => hover.seconds = Some(number(value, 0.2..=10.0)?),
            Some((key, _)) => return Err(format!("`hover` has no `{key}` (height, seconds)")),
            None => hover.squares.push(
                word.parse()
                    .map_err(|_| format!("`{word}` is not a square a1..h8"))?,
            ),
        }
    }
    if hover.squares.is_empty() {
        return Err("`hover` needs a square".into());
    }
    Ok(hover)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "tag White Smith\ntag Black Jones\ncamera seed=7 tilt=8 yaw=3\nmove e2e4\nclock\ntouch g8\nmove b8c6     # touch_move 4.3a: Ng8 was touched first\nclock\n";

    #[test]
    fn the_contract_example_parses() {
        let scenario = Scenario::parse(EXAMPLE).expect("parses");
        assert_eq!(scenario.tags[0], ("White".to_string(), "Smith".to_string()));
        assert_eq!(
            (
                scenario.camera.seed,
                scenario.camera.tilt,
                scenario.camera.yaw
            ),
            (7, 8.0, 3.0)
        );
        assert_eq!(scenario.steps.len(), 5);
        assert_eq!(scenario.steps[2].command, Command::Touch(Square::G8));
        assert_eq!(scenario.steps[3].line, 7);
    }

    #[test]
    fn a_hover_names_its_squares_then_its_height_and_length() {
        let scenario =
            Scenario::parse("hover e7\nhover e7 d7 height=2.5 seconds=2\n").expect("parses");
        let hovers: Vec<&Command> = scenario.steps.iter().map(|s| &s.command).collect();
        assert_eq!(
            hovers,
            [
                &Command::Hover(Hover {
                    squares: vec![Square::E7],
                    height: None,
                    seconds: None
                }),
                &Command::Hover(Hover {
                    squares: vec![Square::E7, Square::D7],
                    height: Some(2.5),
                    seconds: Some(2.0)
                }),
            ]
        );
        for (line, says) in [
            ("hover", "needs a square"),
            ("hover e7 height=0.2", "from 0.9 to 6"),
            ("hover e7 speed=2", "no `speed`"),
            ("hover e9", "not a square"),
        ] {
            let err = Scenario::parse(line).expect_err(line);
            assert!(err.to_string().contains(says), "{line}: {err}");
        }
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let cases = [
            ("move e2e9", 1, "not a move"),
            ("clock\nstart startpos", 2, "before the first action"),
            ("camera tilt=99", 1, "outside"),
            ("camera focus=2", 1, "unknown camera setting"),
            ("# fine\njump e4", 2, "unknown command"),
            ("by red touch e2", 1, "white or black"),
            ("touch", 1, "needs a square"),
            ("add e8 K", 1, "Q, R, B or N"),
            ("wait -1", 1, "seconds"),
            ("touch e2 e4", 1, "takes 1 word"),
        ];
        for (text, line, needle) in cases {
            let err = Scenario::parse(text).expect_err(text);
            assert_eq!(err.line, line, "{text}: {err}");
            assert!(err.message.contains(needle), "{text}: {err}");
        }
    }
}
