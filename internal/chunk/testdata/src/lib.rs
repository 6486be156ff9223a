//! Money arithmetic with explicit rounding.
//!
//! All amounts are integers of minor units.

use std::fmt;
use std::ops::Add;

/// The largest amount accepted.
pub const MAX: i64 = 1 << 53;

/// An amount of money in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Money {
    pub minor: i64,
    pub currency: Currency,
}

/// Supported currencies.
pub enum Currency {
    Eur,
    Usd,
}

pub trait Convert {
    /// Converts to another currency.
    fn convert(&self, to: Currency, rate: f64) -> Money;
}

impl Money {
    /// Makes an amount.
    pub fn new(minor: i64, currency: Currency) -> Self {
        Money { minor, currency }
    }

    pub fn is_zero(&self) -> bool {
        self.minor == 0
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.minor / 100, self.minor % 100)
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, o: Money) -> Money {
        Money::new(self.minor + o.minor, self.currency)
    }
}

macro_rules! money {
    ($m:expr) => {
        Money::new($m, Currency::Eur)
    };
}

pub type Result<T> = std::result::Result<T, Error>;

mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!((money!(1) + money!(2)).minor, 3);
    }
}

fn round_half_even(x: f64) -> i64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 { (r / 2.0).round() as i64 * 2 } else { r as i64 }
}
