//! Kubernetes resource quantities (`500m`, `1.5Gi`, `2`, `1e3`), parsed and summed exactly.
//!
//! Mirrors `k8s.io/apimachinery/pkg/api/resource.Quantity`: the same grammar, the same
//! rounding (every parsed value is rounded away from zero to a whole nano, so `0.1n` is
//! `1n`), the same `MilliValue`/`Value` rounding and the same canonical string form.
//! Amounts are kept as an exact count of nanos in an `i128`, so sums are exact: two
//! containers asking for `0.5m` CPU need `1m`, because Kubernetes sums quantities before
//! rounding them.
//!
//! Where we knowingly differ from the Go implementation (all in inputs nobody writes on
//! purpose):
//! - a number is required: Go's scanner accepts `Mi`, `.`, `+` and `-` as zero; we reject
//!   them, as the documented grammar and the OpenAPI pattern do;
//! - an exponent that does not fit in 32 bits is an error (Go silently wraps it);
//! - amounts above 1e29 units are an error (Go keeps arbitrary precision for decimal
//!   quantities); sums and products beyond about 1.7e29 units saturate, and every layer
//!   above treats such an amount as beyond what it can show exactly (see
//!   [`ResourceList::to_view`](crate::resources::ResourceList::to_view));
//! - binary amounts too large for an `Ei` suffix are printed in `Ei` rather than losing the
//!   suffix.

use std::cmp::Ordering;
use std::fmt;

use serde_json::Value;

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`,
/// 2^53 - 1). View amounts never exceed it: a larger amount is shown as this bound and
/// marked incomplete.
pub const MAX_EXACT: u64 = (1 << 53) - 1;

/// A view amount given back as a double (a JavaScript number), when it is one: whole, from 0 to
/// [`MAX_EXACT`]. Anything else (a fraction, negative, beyond, not finite) would be printed
/// rounded or clamped as if exact, so it is `None`.
pub fn exact_amount(value: f64) -> Option<u64> {
    // `MAX_EXACT` is below 2^53, so its conversion to f64 is exact.
    let max = MAX_EXACT as f64;
    // Whole and within range: the conversion is exact.
    (value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= max)
        .then_some(value as u64)
}

/// Nanos in one unit.
const NANO: i128 = 1_000_000_000;
/// Nanos in one milli-unit.
const NANOS_PER_MILLI: i128 = 1_000_000;
/// Kubernetes caps binary-suffixed quantities at `2^63 - 1` units.
const BINARY_MAX_NANOS: i128 = i64::MAX as i128 * NANO;
/// The largest amount [`Quantity::parse`] accepts: 1e29 units, so that a sum of many such
/// amounts still fits the exact `i128` nanos far beyond anything real.
const PARSE_MAX_NANOS: i128 = 10i128.pow(38);

/// An example of valid quantities, used in every error message.
const EXAMPLES: &str =
    "a number with an optional suffix, e.g. `500m`, `2`, `1.5Gi`, `100M` or `1e3`";

/// How a quantity was written, which decides how it is printed back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Decimal SI suffixes: `n u m "" k M G T P E` (and no suffix at all).
    DecimalSi,
    /// Binary suffixes: `Ki Mi Gi Ti Pi Ei`.
    BinarySi,
    /// A decimal exponent: `1e3`, `5E-2`.
    DecimalExponent,
}

/// A Kubernetes resource quantity: an exact amount in nanos plus the notation it was
/// written in.
///
/// Arithmetic saturates at `i128::MAX` nanos (about 1.7e29 units) instead of overflowing;
/// no real resource list comes near that. Equality and ordering compare amounts only, as
/// Kubernetes' `Cmp` does: `1Ki == 1024`.
#[derive(Debug, Clone, Copy)]
pub struct Quantity {
    nanos: i128,
    notation: Notation,
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.nanos == other.nanos
    }
}

impl Eq for Quantity {}

// Only `PartialOrd`: `Ord` would bring `Ord::max`, which keeps the right side on a tie where
// Kubernetes keeps the left (see [`Quantity::max`]).
impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.nanos.cmp(&other.nanos))
    }
}

/// The exact sum (saturating). Like Kubernetes' `Add`, a zero left side takes the right
/// side's notation.
impl std::ops::Add for Quantity {
    type Output = Quantity;

    fn add(self, other: Quantity) -> Quantity {
        let notation = if self.is_zero() {
            other.notation
        } else {
            self.notation
        };
        Quantity {
            nanos: self.nanos.saturating_add(other.nanos),
            notation,
        }
    }
}

impl std::ops::AddAssign for Quantity {
    fn add_assign(&mut self, other: Quantity) {
        *self = *self + other;
    }
}

/// The exact product with a count (replicas), saturating.
impl std::ops::Mul<u64> for Quantity {
    type Output = Quantity;

    fn mul(self, factor: u64) -> Quantity {
        Quantity {
            nanos: self.nanos.saturating_mul(i128::from(factor)),
            notation: self.notation,
        }
    }
}

impl Default for Quantity {
    fn default() -> Self {
        Quantity::ZERO
    }
}

/// Why a text is not a quantity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantityError {
    input: String,
    kind: QuantityErrorKind,
}

/// The kinds of [`QuantityError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuantityErrorKind {
    /// The text is empty.
    Empty,
    /// No digits before the suffix (`Mi`, `.`, `-`).
    MissingNumber,
    /// The text has whitespace in or around it.
    Whitespace,
    /// More than one decimal point (`1.2.3`).
    SecondDecimalPoint,
    /// The suffix is not one Kubernetes knows (`1K`, `1kb`, `1e`).
    UnknownSuffix(String),
    /// The exponent does not fit in 32 bits.
    ExponentOutOfRange,
    /// The amount is above 1e29 units (a decimal amount; binary ones are capped as
    /// Kubernetes caps them).
    OutOfRange,
    /// A JSON value that is neither a string nor a number.
    NotAStringOrNumber,
}

impl QuantityError {
    fn new(input: &str, kind: QuantityErrorKind) -> Self {
        QuantityError {
            input: input.to_owned(),
            kind,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &QuantityErrorKind {
        &self.kind
    }

    /// The text that failed to parse (for JSON values, their JSON text).
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = &self.input;
        match &self.kind {
            QuantityErrorKind::Empty => write!(f, "a quantity cannot be empty"),
            QuantityErrorKind::MissingNumber => write!(f, "{input:?} has no number"),
            QuantityErrorKind::Whitespace => write!(f, "{input:?} contains whitespace"),
            QuantityErrorKind::SecondDecimalPoint => {
                write!(f, "{input:?} has more than one decimal point")
            }
            QuantityErrorKind::UnknownSuffix(suffix) => {
                write!(f, "{input:?} has an unknown suffix {suffix:?}")?;
                if suffix == "K" {
                    write!(f, " (kilo is a lowercase `k`; kibi is `Ki`)")?;
                } else if suffix.len() == 2 && suffix.ends_with('i') {
                    write!(f, " (binary suffixes are `Ki Mi Gi Ti Pi Ei`)")?;
                } else if suffix.starts_with(['e', 'E']) {
                    write!(f, " (an exponent needs digits, e.g. `1e3`)")?;
                }
                Ok(())
            }
            QuantityErrorKind::ExponentOutOfRange => {
                write!(f, "{input:?} has an exponent out of range")
            }
            QuantityErrorKind::OutOfRange => {
                write!(
                    f,
                    "{input:?} is too large: amounts up to 1e29 are supported"
                )
            }
            QuantityErrorKind::NotAStringOrNumber => {
                write!(f, "a quantity must be a string or a number, not {input}")
            }
        }?;
        write!(f, "; write {EXAMPLES}")
    }
}

impl std::error::Error for QuantityError {}

/// Decimal SI suffixes and their powers of ten.
const DECIMAL_SUFFIXES: [(&str, i32); 10] = [
    ("n", -9),
    ("u", -6),
    ("m", -3),
    ("", 0),
    ("k", 3),
    ("M", 6),
    ("G", 9),
    ("T", 12),
    ("P", 15),
    ("E", 18),
];

/// Binary suffixes and their powers of two.
const BINARY_SUFFIXES: [(&str, u32); 6] = [
    ("Ki", 10),
    ("Mi", 20),
    ("Gi", 30),
    ("Ti", 40),
    ("Pi", 50),
    ("Ei", 60),
];

impl Quantity {
    /// Zero.
    pub const ZERO: Quantity = Quantity {
        nanos: 0,
        notation: Notation::DecimalSi,
    };

    /// Parses a quantity written as Kubernetes accepts it: an optional sign, digits with an
    /// optional decimal point (`5`, `5.`, `.5`, `5.25`), then a binary suffix
    /// (`Ki Mi Gi Ti Pi Ei`), a decimal SI suffix (`n u m k M G T P E`), a decimal exponent
    /// (`e3`, `E-2`) or nothing.
    pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
        let err = |kind| Err(QuantityError::new(text, kind));
        if text.is_empty() {
            return err(QuantityErrorKind::Empty);
        }
        if text.chars().any(char::is_whitespace) {
            return err(QuantityErrorKind::Whitespace);
        }
        let bytes = text.as_bytes();
        let mut pos = 0;
        let negative = match bytes.first() {
            Some(b'-') => {
                pos = 1;
                true
            }
            Some(b'+') => {
                pos = 1;
                false
            }
            _ => false,
        };
        let int_start = pos;
        while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
            pos += 1;
        }
        let int_digits = &bytes[int_start..pos];
        let mut frac_digits: &[u8] = &[];
        if bytes.get(pos) == Some(&b'.') {
            pos += 1;
            let frac_start = pos;
            while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
                pos += 1;
            }
            frac_digits = &bytes[frac_start..pos];
        }
        if int_digits.is_empty() && frac_digits.is_empty() {
            return err(QuantityErrorKind::MissingNumber);
        }
        // `pos` only ever advanced over ASCII bytes, so it is a char boundary.
        let suffix = text.get(pos..).unwrap_or("");
        if suffix.starts_with('.') {
            return err(QuantityErrorKind::SecondDecimalPoint);
        }
        let (notation, exp10, exp2) = match interpret_suffix(suffix) {
            Ok(found) => found,
            Err(kind) => return err(kind),
        };

        let mut digits: Vec<u8> = int_digits
            .iter()
            .chain(frac_digits)
            .map(|b| b - b'0')
            .skip_while(|&d| d == 0)
            .collect();
        let frac_len = i64::try_from(frac_digits.len()).unwrap_or(i64::MAX);
        let shift = i64::from(exp10).saturating_sub(frac_len).saturating_add(9);
        multiply_digits(&mut digits, 1u128 << exp2);
        let mut nanos = digits_to_nanos(&digits, shift);
        let mut notation = notation;
        if notation == Notation::BinarySi {
            // Kubernetes silently caps binary amounts at 2^63 - 1 units; so do we.
            nanos = nanos.min(BINARY_MAX_NANOS);
            if nanos > 0 && nanos < NANO {
                // Kubernetes prints a binary amount below one unit in decimal.
                notation = Notation::DecimalSi;
            }
        }
        if nanos > PARSE_MAX_NANOS {
            return err(QuantityErrorKind::OutOfRange);
        }
        Ok(Quantity {
            nanos: if negative { -nanos } else { nanos },
            notation,
        })
    }

    /// Reads a quantity from JSON, as the Kubernetes API server decodes one: a string
    /// (surrounding whitespace trimmed, as `Quantity.UnmarshalJSON` does), a number
    /// (`cpu: 2`, `cpu: 0.5`) or `null` (zero).
    pub fn from_json(value: &Value) -> Result<Quantity, QuantityError> {
        match value {
            Value::Null => Ok(Quantity::ZERO),
            Value::String(text) => Quantity::parse(text.trim()),
            Value::Number(number) => Quantity::parse(&number.to_string()),
            other => Err(QuantityError::new(
                &other.to_string(),
                QuantityErrorKind::NotAStringOrNumber,
            )),
        }
    }

    /// A quantity of exactly `nanos` billionths of a unit, in decimal notation.
    pub fn from_nanos(nanos: i128) -> Quantity {
        Quantity {
            nanos,
            notation: Notation::DecimalSi,
        }
    }

    /// A quantity of `millis` thousandths of a unit (CPU millicores), in decimal notation.
    pub fn from_millis(millis: i64) -> Quantity {
        Quantity::from_nanos(i128::from(millis) * NANOS_PER_MILLI)
    }

    /// A whole number of units in the given notation.
    pub fn from_units(units: i64, notation: Notation) -> Quantity {
        Quantity {
            nanos: i128::from(units) * NANO,
            notation,
        }
    }

    /// The exact amount in billionths of a unit.
    pub fn nanos(&self) -> i128 {
        self.nanos
    }

    /// How the quantity was written (decides [`format`](Self::format)).
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }

    /// True below zero.
    pub fn is_negative(&self) -> bool {
        self.nanos < 0
    }

    /// True when the amount is a whole number of units.
    pub fn is_integer(&self) -> bool {
        self.nanos % NANO == 0
    }

    /// The larger of the two; on a tie, `self` (Kubernetes replaces only when greater).
    pub fn max(self, other: Quantity) -> Quantity {
        if other.nanos > self.nanos {
            other
        } else {
            self
        }
    }

    /// Thousandths of a unit, rounded away from zero, as Kubernetes' `MilliValue` (CPU
    /// millicores). Saturates at the `i64` range.
    pub fn milli_value_ceil(&self) -> i64 {
        saturate_i64(div_away_from_zero(self.nanos, NANOS_PER_MILLI))
    }

    /// Whole units, rounded away from zero, as Kubernetes' `Value` (bytes, devices).
    /// Saturates at the `i64` range.
    pub fn value_ceil(&self) -> i64 {
        saturate_i64(div_away_from_zero(self.nanos, NANO))
    }

    /// Thousandths of a unit, rounded away from zero, without saturating at the `i64` range
    /// (only the `i128` nanos themselves saturate).
    pub fn millis_ceil_wide(&self) -> i128 {
        div_away_from_zero(self.nanos, NANOS_PER_MILLI)
    }

    /// Thousandths of a unit (rounded away from zero, as [`millis_ceil_wide`]) when a
    /// JavaScript number holds them exactly (within ±[`MAX_EXACT`]), else `None`: a clamped or
    /// rounded number would look exact.
    ///
    /// [`millis_ceil_wide`]: Self::millis_ceil_wide
    pub fn milli_value(&self) -> Option<i64> {
        let millis = self.millis_ceil_wide();
        let exact = i128::from(MAX_EXACT);
        (-exact..=exact)
            .contains(&millis)
            .then(|| i64::try_from(millis).ok())
            .flatten()
    }

    /// Whole units, rounded away from zero, without saturating at the `i64` range.
    pub fn units_ceil_wide(&self) -> i128 {
        div_away_from_zero(self.nanos, NANO)
    }

    /// True when arithmetic saturated (the amount is beyond about 1.7e29 units and no longer
    /// exact).
    pub fn is_saturated(&self) -> bool {
        self.nanos == i128::MAX || self.nanos == i128::MIN
    }

    /// An approximate floating-point value, for display and ratios only.
    pub fn to_f64(&self) -> f64 {
        self.nanos as f64 / NANO as f64
    }

    /// The canonical Kubernetes string (`Quantity.String()`): `1500m`, `1536Mi`, `2`, `1k`,
    /// `5e3`. Binary notation is kept only for whole amounts of at least 1024; anything
    /// else is printed in decimal, with the mantissa's exponent a multiple of three.
    pub fn format(&self) -> String {
        if self.nanos == 0 {
            return "0".to_owned();
        }
        let sign = if self.nanos < 0 { "-" } else { "" };
        let magnitude = self.nanos.unsigned_abs();
        let nano = NANO.unsigned_abs();
        if self.notation == Notation::BinarySi && magnitude >= 1024 * nano && magnitude % nano == 0
        {
            let mut units = magnitude / nano;
            let mut steps = 0;
            while steps < BINARY_SUFFIXES.len() && units % 1024 == 0 {
                units /= 1024;
                steps += 1;
            }
            let suffix = match steps.checked_sub(1) {
                Some(i) => BINARY_SUFFIXES.get(i).map_or("", |(s, _)| *s),
                None => "",
            };
            return format!("{sign}{units}{suffix}");
        }
        let mut mantissa = magnitude;
        let mut exponent: i32 = -9;
        while mantissa % 10 == 0 {
            mantissa /= 10;
            exponent += 1;
        }
        let pad = exponent.rem_euclid(3);
        exponent -= pad;
        let zeros = "0".repeat(pad.unsigned_abs() as usize);
        let suffix = match self.notation {
            Notation::DecimalExponent if exponent == 0 => String::new(),
            Notation::DecimalExponent => format!("e{exponent}"),
            _ => match DECIMAL_SUFFIXES.iter().find(|(_, e)| *e == exponent) {
                Some((s, _)) => (*s).to_owned(),
                // No SI suffix beyond `E`: fall back to an exponent, as Kubernetes does.
                None => format!("e{exponent}"),
            },
        };
        format!("{sign}{mantissa}{zeros}{suffix}")
    }

    /// A short human reading for terminals: `16Gi`, `1.5Gi`, `70M`, `20`, `1.5`, `500m`.
    ///
    /// Exact when the amount is a whole number of its largest fitting unit, otherwise
    /// rounded to at most two decimals (so not for arithmetic: use [`format`](Self::format)).
    pub fn human(&self) -> String {
        if self.nanos == 0 {
            return "0".to_owned();
        }
        let sign = if self.nanos < 0 { "-" } else { "" };
        let magnitude = self.nanos.unsigned_abs();
        let nano = NANO.unsigned_abs();
        if magnitude < nano {
            // Below one unit: millis (CPU), exact when whole.
            return if magnitude % NANOS_PER_MILLI.unsigned_abs() == 0 {
                format!("{sign}{}m", magnitude / NANOS_PER_MILLI.unsigned_abs())
            } else {
                self.format()
            };
        }
        let units: Vec<(&str, u128)> = if self.notation == Notation::BinarySi {
            BINARY_SUFFIXES
                .iter()
                .rev()
                .map(|(s, p)| (*s, 1u128 << p))
                .collect()
        } else {
            DECIMAL_SUFFIXES
                .iter()
                .rev()
                .filter(|(_, e)| *e >= 3)
                .map(|(s, e)| (*s, 10u128.pow(e.unsigned_abs())))
                .collect()
        };
        let (suffix, unit) = units
            .into_iter()
            .find(|(_, unit)| magnitude >= unit * nano)
            .unwrap_or(("", 1));
        let unit_nanos = unit * nano;
        let whole = magnitude / unit_nanos;
        let rest = magnitude % unit_nanos;
        if rest == 0 {
            return format!("{sign}{whole}{suffix}");
        }
        // Two decimals, rounded half up, trailing zeros trimmed.
        let hundredths = whole * 100 + (rest * 100 + unit_nanos / 2) / unit_nanos;
        let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        format!("{sign}{text}{suffix}")
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format())
    }
}

/// A human reading of CPU millicores: `20`, `1.5`, `500m`.
pub fn human_millis(millis: u64) -> String {
    Quantity::from_nanos(i128::from(millis) * NANOS_PER_MILLI).human()
}

/// A human reading of a byte count: binary units when the amount is a whole number of
/// KiB, decimal units when it is a whole number of kB and not of KiB, binary otherwise:
/// `16Gi`, `70M`, `1.5Gi`.
pub fn human_bytes(bytes: u64) -> String {
    let notation = if bytes % 1024 != 0 && bytes % 1000 == 0 {
        Notation::DecimalSi
    } else {
        Notation::BinarySi
    };
    Quantity {
        nanos: i128::from(bytes) * NANO,
        notation,
    }
    .human()
}

/// The notation and powers of ten and two a suffix stands for.
fn interpret_suffix(suffix: &str) -> Result<(Notation, i32, u32), QuantityErrorKind> {
    if let Some((_, e)) = DECIMAL_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
        return Ok((Notation::DecimalSi, *e, 0));
    }
    if let Some((_, p)) = BINARY_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
        return Ok((Notation::BinarySi, 0, *p));
    }
    let unknown = || QuantityErrorKind::UnknownSuffix(suffix.to_owned());
    let exponent = suffix.strip_prefix(['e', 'E']).ok_or_else(unknown)?;
    let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(unknown());
    }
    match exponent.parse::<i32>() {
        Ok(e) => Ok((Notation::DecimalExponent, e, 0)),
        Err(_) => Err(QuantityErrorKind::ExponentOutOfRange),
    }
}

/// Multiplies a big-endian decimal digit string by `factor` in place.
fn multiply_digits(digits: &mut Vec<u8>, factor: u128) {
    if factor == 1 || digits.is_empty() {
        return;
    }
    let mut carry: u128 = 0;
    for d in digits.iter_mut().rev() {
        let t = u128::from(*d) * factor + carry;
        *d = (t % 10) as u8;
        carry = t / 10;
    }
    let mut head = Vec::new();
    while carry > 0 {
        head.push((carry % 10) as u8);
        carry /= 10;
    }
    head.reverse();
    head.append(digits);
    *digits = head;
}

/// `digits × 10^shift` as nanos (the caller already added 9 to the shift), rounded away
/// from zero and saturated at `i128::MAX`.
fn digits_to_nanos(digits: &[u8], shift: i64) -> i128 {
    if digits.is_empty() {
        return 0;
    }
    let (kept, round_up, zeros) = if shift >= 0 {
        (digits, false, shift)
    } else {
        let drop = usize::try_from(shift.unsigned_abs()).unwrap_or(usize::MAX);
        let keep = digits.len().saturating_sub(drop);
        let (kept, dropped) = digits.split_at(keep);
        (kept, dropped.iter().any(|&d| d != 0), 0)
    };
    let mut value: i128 = 0;
    for &d in kept.iter().chain(std::iter::repeat_n(
        &0u8,
        usize::try_from(zeros).unwrap_or(usize::MAX).min(40),
    )) {
        value = match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i128::from(d)))
        {
            Some(v) => v,
            None => return i128::MAX,
        };
    }
    if zeros > 40 {
        return i128::MAX;
    }
    if round_up {
        value = value.saturating_add(1);
    }
    value
}

/// Integer division rounding away from zero.
fn div_away_from_zero(value: i128, divisor: i128) -> i128 {
    let quotient = value / divisor;
    if value % divisor == 0 {
        quotient
    } else if value > 0 {
        quotient + 1
    } else {
        quotient - 1
    }
}

fn saturate_i64(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}
