//! The user's model prices (`Settings::model_prices`): what the window may save of them. The engine
//! keeps them and never prices anything itself; the window prices each answer's usage with them over
//! its own default table (docs/COST.md).

use std::collections::BTreeMap;

use warden_protocol::ModelPrice;

/// The longest model prefix a price may name (model ids are far shorter).
pub const MAX_PRICE_PREFIX: usize = 100;
/// The most prices the settings may hold.
pub const MAX_PRICES: usize = 500;

/// Why a price the window sent is refused, in words for the user.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PriceError {
    #[error("a model price needs the model it is for: a model id or the start of one, like `gpt-5`")]
    NoModel,
    #[error("the model `{0}…` of a price is longer than {MAX_PRICE_PREFIX} characters")]
    TooLong(String),
    #[error("the model `{0}` of a price has a space or a control character: give a model id, like `gpt-5`")]
    BadCharacter(String),
    #[error(
        "the price of `{model}` per million {which} tokens must be a number of dollars, 0 or more \
(not {value})"
    )]
    BadAmount { model: String, which: &'static str, value: f64 },
    #[error("`{0}` and `{1}` name the same model (case does not count): keep one")]
    Twice(String, String),
    #[error("at most {MAX_PRICES} model prices can be kept")]
    TooMany,
}

/// Refuses what the window must not save: a price that is negative or not a number, a model prefix
/// that is empty, too long, or holds whitespace or control characters, two prefixes that differ only
/// in case (the window matches without case), more than [`MAX_PRICES`] entries.
pub fn check_model_prices(prices: &BTreeMap<String, ModelPrice>) -> Result<(), PriceError> {
    if prices.len() > MAX_PRICES {
        return Err(PriceError::TooMany);
    }
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for (model, price) in prices {
        check_prefix(model)?;
        for (which, value) in [("input", price.input), ("output", price.output)] {
            if !value.is_finite() || value < 0.0 {
                return Err(PriceError::BadAmount { model: model.clone(), which, value });
            }
        }
        if let Some(first) = seen.insert(model.to_lowercase(), model) {
            return Err(PriceError::Twice(first.to_owned(), model.clone()));
        }
    }
    Ok(())
}

fn check_prefix(model: &str) -> Result<(), PriceError> {
    if model.is_empty() {
        return Err(PriceError::NoModel);
    }
    if model.chars().count() > MAX_PRICE_PREFIX {
        return Err(PriceError::TooLong(model.chars().take(40).collect()));
    }
    if model.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(PriceError::BadCharacter(model.escape_default().to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prices(entries: &[(&str, f64, f64)]) -> BTreeMap<String, ModelPrice> {
        entries.iter().map(|&(m, input, output)| (m.to_owned(), ModelPrice { input, output })).collect()
    }

    #[test]
    fn prices_of_zero_or_more_for_plain_model_ids_are_kept() {
        assert_eq!(check_model_prices(&BTreeMap::new()), Ok(()));
        let fine = prices(&[("gpt-5", 1.25, 10.0), ("my-local:7b", 0.0, 0.0), ("openrouter/x", 0.5, 1.5)]);
        assert_eq!(check_model_prices(&fine), Ok(()));
    }

    #[test]
    fn a_negative_or_non_finite_price_is_refused_naming_the_model() {
        for (input, output, which) in [
            (-1.0, 1.0, "input"),
            (1.0, -0.01, "output"),
            (f64::NAN, 1.0, "input"),
            (1.0, f64::INFINITY, "output"),
        ] {
            let error = check_model_prices(&prices(&[("gpt-5", input, output)])).unwrap_err();
            assert!(
                matches!(&error, PriceError::BadAmount { model, which: w, .. } if model == "gpt-5" && *w == which)
            );
            assert!(error.to_string().contains("`gpt-5` per million"), "{error}");
        }
    }

    #[test]
    fn an_empty_long_spaced_or_twice_named_model_is_refused() {
        assert_eq!(check_model_prices(&prices(&[("", 1.0, 1.0)])), Err(PriceError::NoModel));
        let long = "m".repeat(MAX_PRICE_PREFIX + 1);
        assert!(matches!(check_model_prices(&prices(&[(&long, 1.0, 1.0)])), Err(PriceError::TooLong(_))));
        let at_most = "m".repeat(MAX_PRICE_PREFIX);
        assert_eq!(check_model_prices(&prices(&[(&at_most, 1.0, 1.0)])), Ok(()));
        for bad in [" gpt-5", "gpt 5", "gpt-5\n", "gpt\u{7}"] {
            assert!(
                matches!(check_model_prices(&prices(&[(bad, 1.0, 1.0)])), Err(PriceError::BadCharacter(_))),
                "{bad:?}"
            );
        }
        let twice = prices(&[("GPT-5", 1.0, 1.0), ("gpt-5", 2.0, 2.0)]);
        assert_eq!(check_model_prices(&twice), Err(PriceError::Twice("GPT-5".into(), "gpt-5".into())));
    }

    #[test]
    fn more_than_the_most_prices_is_refused() {
        let many: BTreeMap<String, ModelPrice> =
            (0..=MAX_PRICES).map(|i| (format!("m{i}"), ModelPrice { input: 1.0, output: 1.0 })).collect();
        assert_eq!(check_model_prices(&many), Err(PriceError::TooMany));
    }
}
