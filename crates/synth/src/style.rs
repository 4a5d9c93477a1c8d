//! How a scene looks, drawn at random from a seed: board colours and
//! texture, piece sets, table, light, skin and sleeves. Breadth of variation
//! matters more than beauty: the detector must survive real cameras.

use rand::Rng;
use rand::seq::IndexedRandom;
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
        }
    }
}

fn jitter(rng: &mut ChaCha8Rng, colour: Bgr, amount: f64) -> Bgr {
    colour.map(|c| (c + rng.random_range(-amount..amount)).clamp(0.0, 255.0))
}
