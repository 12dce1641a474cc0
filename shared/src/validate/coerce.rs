//! pydantic v2's lax-mode coercions, as DeepSpeed's strict sections apply them (and, in
//! [`v1`], pydantic v1's, which DeepSpeed 0.14.x used through `deepspeed.pydantic_v1`).
//!
//! Observed with DeepSpeed 0.19.8 / pydantic 2 (see `shared/tests/fixtures/oracle_probes.md`):
//! an `int` field takes integers, whole floats (`5e8`), booleans and integer strings; a `float`
//! field takes numbers, booleans and numeric strings; a `bool` field takes booleans, 0/1 and the
//! usual yes/no words; a `str` field takes only strings.

use super::view::Py;

/// Why a value does not fit a type (pydantic's wording).
pub type Reason = &'static str;

pub fn to_int(p: &Py) -> Result<f64, Reason> {
    let v = to_int_unbounded(p)?;
    // A float or string beyond 64 bits fails ("exceeded maximum size"); Python ints do not.
    if !matches!(p, Py::Int(_)) && v.abs() >= 9.223_372_036_854_776e18 {
        return Err("Unable to parse input string as an integer, exceeded maximum size");
    }
    Ok(v)
}

fn to_int_unbounded(p: &Py) -> Result<f64, Reason> {
    match p {
        Py::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Py::Int(v) => Ok(*v),
        Py::Float(v) if !v.is_finite() => Err("Input should be a finite number"),
        Py::Float(v) if v.fract() != 0.0 => {
            Err("Input should be a valid integer, got a number with a fractional part")
        }
        Py::Float(v) => Ok(*v),
        Py::Str(s) => parse_int_str(s)
            .ok_or("Input should be a valid integer, unable to parse string as an integer"),
        Py::None => Err("Input should be a valid integer"),
        Py::List | Py::Dict => Err("Input should be a valid integer"),
    }
}

fn parse_int_str(s: &str) -> Option<f64> {
    let t = s.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    // pydantic accepts a decimal point followed only by zeros ("16.0").
    let t = match t.split_once('.') {
        Some((int, frac)) if frac.chars().all(|c| c == '0') => int,
        Some(_) => return None,
        None => t,
    };
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty()
        || !digits.chars().all(|c| c.is_ascii_digit() || c == '_')
        || digits.starts_with('_')
        || digits.ends_with('_')
    {
        return None;
    }
    t.replace('_', "").parse::<f64>().ok()
}

pub fn to_float(p: &Py) -> Result<f64, Reason> {
    match p {
        Py::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Py::Int(v) | Py::Float(v) => Ok(*v),
        Py::Str(s) => {
            let t = s.trim().to_ascii_lowercase();
            match t.as_str() {
                "inf" | "+inf" | "infinity" | "+infinity" => Ok(f64::INFINITY),
                "-inf" | "-infinity" => Ok(f64::NEG_INFINITY),
                "nan" | "+nan" | "-nan" => Ok(f64::NAN),
                _ if t.chars().all(|c| c.is_ascii_digit() || "+-.e_".contains(c)) => {
                    t.replace('_', "").parse::<f64>().map_err(|_| {
                        "Input should be a valid number, unable to parse string as a number"
                    })
                }
                _ => Err("Input should be a valid number, unable to parse string as a number"),
            }
        }
        _ => Err("Input should be a valid number"),
    }
}

pub fn to_bool(p: &Py) -> Result<bool, Reason> {
    match p {
        Py::Bool(b) => Ok(*b),
        Py::Int(v) | Py::Float(v) if *v == 0.0 => Ok(false),
        Py::Int(v) | Py::Float(v) if *v == 1.0 => Ok(true),
        Py::Str(s) => match s.to_ascii_lowercase().as_str() {
            "0" | "off" | "f" | "false" | "n" | "no" => Ok(false),
            "1" | "on" | "t" | "true" | "y" | "yes" => Ok(true),
            _ => Err("Input should be a valid boolean, unable to interpret input"),
        },
        _ => Err("Input should be a valid boolean"),
    }
}

pub fn to_str(p: &Py) -> Result<(), Reason> {
    match p {
        Py::Str(_) => Ok(()),
        _ => Err("Input should be a valid string"),
    }
}

/// pydantic v1's coercions (DeepSpeed 0.14.x): ints truncate floats and parse only integer
/// strings, strings take numbers, dicts take lists of pairs.
pub mod v1 {
    use super::{Py, Reason};

    pub fn to_int(p: &Py) -> Result<f64, Reason> {
        match p {
            Py::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
            Py::Int(v) => Ok(*v),
            Py::Float(v) if v.is_finite() => Ok(v.trunc()),
            Py::Float(_) => Err("value is not a valid integer"),
            Py::Str(s) => {
                let t = s.trim().replace('_', "");
                let digits = t.strip_prefix(['+', '-']).unwrap_or(&t);
                if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                    t.parse::<f64>().map_err(|_| "value is not a valid integer")
                } else {
                    Err("value is not a valid integer")
                }
            }
            _ => Err("value is not a valid integer"),
        }
    }

    pub fn to_str(p: &Py) -> Result<(), Reason> {
        match p {
            Py::Str(_) | Py::Int(_) | Py::Float(_) | Py::Bool(_) => Ok(()),
            _ => Err("str type expected"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_coercions() {
        assert_eq!(to_int(&Py::Float(5e8)), Ok(5e8));
        assert!(to_int(&Py::Float(16.5)).is_err());
        assert_eq!(to_int(&Py::Str("16".into())), Ok(16.0));
        assert_eq!(to_int(&Py::Bool(true)), Ok(1.0));
        assert!(to_int(&Py::Str("5e8".into())).is_err());
        assert!(to_int(&Py::None).is_err());
    }

    #[test]
    fn pydantic_v1_ints_truncate_and_strings_take_numbers() {
        assert_eq!(v1::to_int(&Py::Float(16.5)), Ok(16.0));
        assert_eq!(v1::to_int(&Py::Float(1e20)), Ok(1e20));
        assert!(v1::to_int(&Py::Str("16.0".into())).is_err());
        assert_eq!(v1::to_int(&Py::Str(" 16 ".into())), Ok(16.0));
        assert!(v1::to_str(&Py::Int(5.0)).is_ok());
        assert!(v1::to_str(&Py::List).is_err());
    }

    #[test]
    fn bool_coercions() {
        assert_eq!(to_bool(&Py::Str("yes".into())), Ok(true));
        assert_eq!(to_bool(&Py::Int(0.0)), Ok(false));
        assert!(to_bool(&Py::Int(2.0)).is_err());
        assert!(to_bool(&Py::Str("maybe".into())).is_err());
    }
}
