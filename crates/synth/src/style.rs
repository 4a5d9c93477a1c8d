//! How a scene looks, drawn at random from a seed: board colours and
//! texture, piece sets, table, light, skin and sleeves. Breadth of variation
//! matters more than beauty: the detector must survive real cameras.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A colour in BGR, 0..255.
pub type Bgr = [f64; 3];

/// The texture of the squares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Texture {
    Plain,
    WoodGrain,
    Paper,
    Vinyl,
}

/// Everything about a scene's look.
#[derive(Debug, Clone)]
pub struct Style {
    pub light_square: Bgr,
    pub dark_square: Bgr,
    pub texture: Texture,
    pub border: Bgr,
    pub coordinates: Bgr,
    pub table: Bgr,
    pub white_pieces: Bgr,
    pub black_pieces: Bgr,
    pub skin: [Bgr; 2],
    pub sleeve: [Bgr; 2],
    /// Direction the light comes from, on the board plane (unit), and its height.
    pub light_dir: [f64; 2],
    /// Multiplies every colour channel: colour temperature and brightness.
    pub tint: Bgr,
    /// 0..1: how uneven the light is across the image.
    pub vignette: f64,
    /// Where on the image a glare spot falls, if any (fractions of width and height).
    pub glare: Option<[f64; 2]>,
    /// Scale of the pieces against the squares.
    pub piece_scale: f64,
    /// Figured wood: streaks at any angle, knots and spots on the squares,
    /// as real wooden boards have (none in the classic looks).
    pub figure: bool,
}

/// How far a dataset's looks range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Looks {
    /// The palettes the scenarios are drawn from.
    #[default]
    Classic,
    /// Wider, for training: figured wood, printed black-and-white and grey
    /// boards, natural-wood and rosewood sets, stronger colour casts.
    Wide,
    /// The classic looks with the two sets in every tone real sets show
    /// in real light: White's from ivory down to mid-brown wood, Black's
    /// from ebony up to light brown, White's always the lighter of the two.
    Tones,
}

impl Looks {
    /// The style a dataset frame is drawn in: `None` for the classic looks
    /// (the scenario's own), else the scenario's classic style (from its
    /// camera's seed) widened or retoned by draws from `rng`.
    pub fn style(self, camera_seed: u64, rng: &mut ChaCha8Rng) -> Option<Style> {
        let change: fn(&mut Style, &mut ChaCha8Rng) = match self {
            Looks::Classic => return None,
            Looks::Wide => Style::widen,
            Looks::Tones => Style::retone_sets,
        };
        let mut style = Style::random(&mut ChaCha8Rng::seed_from_u64(camera_seed));
        change(&mut style, rng);
        Some(style)
    }
}

const LIGHT_SQUARES: [Bgr; 6] = [
    [181.0, 217.0, 240.0],
    [200.0, 228.0, 238.0],
    [210.0, 222.0, 225.0],
    [170.0, 206.0, 222.0],
    [220.0, 232.0, 235.0],
    [150.0, 200.0, 215.0],
];
const DARK_SQUARES: [Bgr; 6] = [
    [99.0, 136.0, 181.0],
    [86.0, 150.0, 118.0],
    [60.0, 90.0, 140.0],
    [120.0, 120.0, 120.0],
    [70.0, 70.0, 150.0],
    [40.0, 60.0, 95.0],
];
const WHITE_SETS: [Bgr; 4] = [
    [225.0, 240.0, 245.0], // ivory
    [150.0, 205.0, 230.0], // boxwood
    [205.0, 228.0, 240.0], // cream
    [235.0, 235.0, 235.0], // plastic white
];
const BLACK_SETS: [Bgr; 4] = [
    [35.0, 35.0, 40.0],  // ebony
    [40.0, 60.0, 100.0], // brown
    [40.0, 40.0, 140.0], // red
    [55.0, 55.0, 55.0],  // plastic black
];
/// Printed and vinyl boards: white squares with black, grey or very dark
/// green ones.
const PRINTED_BOARDS: [(Bgr, Bgr); 4] = [
    ([238.0, 240.0, 242.0], [32.0, 30.0, 30.0]),
    ([225.0, 230.0, 232.0], [55.0, 50.0, 48.0]),
    ([230.0, 235.0, 235.0], [95.0, 95.0, 95.0]),
    ([220.0, 235.0, 235.0], [45.0, 70.0, 40.0]),
];
/// Unstained wooden sets: boxwood and maple in their natural, more orange
/// tones, and what a warm light makes of them.
const NATURAL_WOOD_SETS: [Bgr; 4] = [
    [110.0, 170.0, 215.0],
    [90.0, 150.0, 200.0],
    [130.0, 190.0, 225.0],
    [150.0, 185.0, 205.0],
];
/// Dark wooden sets: rosewood, sheesham, walnut.
const DARK_WOOD_SETS: [Bgr; 4] = [
    [40.0, 50.0, 90.0],
    [30.0, 40.0, 75.0],
    [50.0, 65.0, 115.0],
    [45.0, 55.0, 65.0],
];
const SKINS: [Bgr; 6] = [
    [170.0, 195.0, 235.0],
    [140.0, 170.0, 220.0],
    [105.0, 140.0, 190.0],
    [80.0, 110.0, 160.0],
    [60.0, 80.0, 120.0],
    [185.0, 205.0, 240.0],
];
const SLEEVES: [Bgr; 7] = [
    [40.0, 40.0, 40.0],
    [140.0, 90.0, 40.0],
    [200.0, 200.0, 200.0],
    [50.0, 50.0, 150.0],
    [60.0, 120.0, 60.0],
    [170.0, 170.0, 120.0],
    [90.0, 90.0, 90.0],
];
const TABLES: [Bgr; 5] = [
    [60.0, 90.0, 130.0],
    [200.0, 200.0, 200.0],
    [50.0, 60.0, 70.0],
    [100.0, 130.0, 160.0],
    [30.0, 80.0, 40.0],
];

impl Style {
    /// A plain style: the classic brown board and an ivory and ebony set.
    pub fn plain() -> Self {
        Self {
            light_square: LIGHT_SQUARES[0],
            dark_square: DARK_SQUARES[0],
            texture: Texture::Plain,
            border: [40.0, 70.0, 110.0],
            coordinates: [200.0, 220.0, 230.0],
            table: TABLES[0],
            white_pieces: WHITE_SETS[0],
            black_pieces: BLACK_SETS[0],
            skin: [SKINS[1], SKINS[3]],
            sleeve: [SLEEVES[1], SLEEVES[0]],
            light_dir: [-0.5, 0.7],
            tint: [1.0, 1.0, 1.0],
            vignette: 0.0,
            glare: None,
            piece_scale: 1.0,
            figure: false,
        }
    }

    /// A style varied at random across everything it holds.
    pub fn random(rng: &mut ChaCha8Rng) -> Self {
        let pick = |rng: &mut ChaCha8Rng, set: &[Bgr]| {
            let colour = *set.choose(rng).expect("non-empty");
            jitter(rng, colour, 12.0)
        };
        let warmth = rng.random_range(-0.12..0.12);
        let brightness = rng.random_range(0.7..1.15);
        let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
        Self {
            light_square: pick(rng, &LIGHT_SQUARES),
            dark_square: pick(rng, &DARK_SQUARES),
            texture: *[
                Texture::Plain,
                Texture::WoodGrain,
                Texture::Paper,
                Texture::Vinyl,
            ]
            .choose(rng)
            .expect("textures"),
            border: pick(rng, &DARK_SQUARES),
            coordinates: pick(rng, &LIGHT_SQUARES),
            table: pick(rng, &TABLES),
            white_pieces: pick(rng, &WHITE_SETS),
            black_pieces: pick(rng, &BLACK_SETS),
            skin: [pick(rng, &SKINS), pick(rng, &SKINS)],
            sleeve: [pick(rng, &SLEEVES), pick(rng, &SLEEVES)],
            light_dir: [angle.cos(), angle.sin()],
            tint: [
                brightness * (1.0 - warmth),
                brightness,
                brightness * (1.0 + warmth),
            ],
            vignette: rng.random_range(0.0..0.5),
            glare: rng
                .random_bool(0.3)
                .then(|| [rng.random_range(0.2..0.8), rng.random_range(0.2..0.8)]),
            piece_scale: rng.random_range(0.85..1.1),
            figure: false,
        }
    }

    /// Widens these looks at random (`Looks::Wide`); draws only from `rng`,
    /// so the classic looks of a seed stay what they were.
    pub fn widen(&mut self, rng: &mut ChaCha8Rng) {
        self.figure = rng.random_bool(0.5);
        if rng.random_bool(0.25) {
            let (light, dark) = *PRINTED_BOARDS.choose(rng).expect("boards");
            self.light_square = jitter(rng, light, 12.0);
            self.dark_square = jitter(rng, dark, 12.0);
        }
        if rng.random_bool(0.35) {
            let set = *NATURAL_WOOD_SETS.choose(rng).expect("sets");
            self.white_pieces = jitter(rng, set, 15.0);
        }
        if rng.random_bool(0.35) {
            let set = *DARK_WOOD_SETS.choose(rng).expect("sets");
            self.black_pieces = jitter(rng, set, 12.0);
        }
        // A colour cast beyond the classic warmth: fluorescent green, a
        // blue window light, a yellow lamp.
        if rng.random_bool(0.3) {
            for channel in &mut self.tint {
                *channel *= rng.random_range(0.85..1.15);
            }
        }
    }
}

/// The hues sets come in, as a share of each channel (B, G, R) of the
/// brightest: neutral, ivory, wood, reddish wood.
const SET_HUES: [Bgr; 4] = [
    [1.0, 1.0, 1.0],
    [0.9, 0.97, 1.0],
    [0.55, 0.78, 1.0],
    [0.35, 0.45, 1.0],
];

impl Style {
    /// Gives the two sets tones anywhere in the range real sets show under
    /// real light (`Looks::Tones`), so that no brightness alone tells the
    /// sides apart across pictures: in a picture White's is always the
    /// lighter, by at least a third. Draws only from `rng`.
    pub fn retone_sets(&mut self, rng: &mut ChaCha8Rng) {
        let tone = |rng: &mut ChaCha8Rng, top: f64| -> Bgr {
            let hue = *SET_HUES.choose(rng).expect("hues");
            hue.map(|share| (share * top + rng.random_range(-6.0..6.0)).clamp(0.0, 255.0))
        };
        let white_top = rng.random_range(120.0..250.0);
        self.white_pieces = tone(rng, white_top);
        let white = luminance(self.white_pieces);
        self.black_pieces = loop {
            let top = rng.random_range(30.0..170.0);
            let candidate = tone(rng, top);
            if luminance(candidate) <= 0.66 * white {
                break candidate;
            }
        };
    }
}

fn luminance([b, g, r]: Bgr) -> f64 {
    0.114 * b + 0.587 * g + 0.299 * r
}

fn jitter(rng: &mut ChaCha8Rng, colour: Bgr, amount: f64) -> Bgr {
    colour.map(|c| (c + rng.random_range(-amount..amount)).clamp(0.0, 255.0))
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn wide_looks_reach_figured_wood_printed_boards_and_wooden_sets() {
        let (mut figured, mut printed, mut natural) = (0, 0, 0);
        for seed in 0..200 {
            let mut style = Style::random(&mut ChaCha8Rng::seed_from_u64(seed));
            assert!(!style.figure, "classic looks have no figure");
            style.widen(&mut ChaCha8Rng::seed_from_u64(seed + 1000));
            figured += usize::from(style.figure);
            printed += usize::from(style.dark_square.iter().all(|&c| c < 70.0));
            natural += usize::from(NATURAL_WOOD_SETS.iter().any(|set| {
                set.iter()
                    .zip(style.white_pieces)
                    .all(|(a, b)| (a - b).abs() <= 15.0)
            }));
        }
        assert!((60..140).contains(&figured), "{figured} of 200 figured");
        assert!(printed >= 20, "{printed} of 200 on near-black squares");
        assert!(natural >= 40, "{natural} of 200 natural-wood sets");
    }

    #[test]
    fn retoned_sets_overlap_across_pictures_and_white_stays_lighter_in_each() {
        let (mut darkest_white, mut lightest_black) = (f64::MAX, 0.0f64);
        for seed in 0..200 {
            let mut style = Style::random(&mut ChaCha8Rng::seed_from_u64(seed));
            style.retone_sets(&mut ChaCha8Rng::seed_from_u64(seed + 1000));
            let (white, black) = (luminance(style.white_pieces), luminance(style.black_pieces));
            assert!(
                black <= 0.66 * white,
                "seed {seed}: {white} against {black}"
            );
            darkest_white = darkest_white.min(white);
            lightest_black = lightest_black.max(black);
        }
        assert!(
            darkest_white < lightest_black,
            "White's darkest set ({darkest_white}) is lighter than Black's lightest ({lightest_black})"
        );
    }
}
