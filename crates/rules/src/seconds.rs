//! Times as the referee writes them: seconds rounded to the millisecond,
//! so that a time read from frames carries no float noise
//! (`5.3500000000000005`) into JSON.

use serde::Serializer;

/// `t` rounded to the millisecond.
pub fn to_millisecond(t: f64) -> f64 {
    (t * 1000.0).round() / 1000.0
}

/// Serializes a time rounded to the millisecond (`serialize_with`).
pub fn serialize<S: Serializer>(t: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(to_millisecond(*t))
}

/// Serializes a time that may be absent, rounded to the millisecond.
pub fn serialize_option<S: Serializer>(t: &Option<f64>, serializer: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => serializer.serialize_some(&to_millisecond(*t)),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_times_lose_their_float_noise() {
        assert_eq!(to_millisecond(5.3500000000000005), 5.35);
        assert_eq!(to_millisecond(1.6500000000000001), 1.65);
        assert_eq!(to_millisecond(0.0004), 0.0);
    }
}
