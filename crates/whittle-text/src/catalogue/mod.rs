//! A language's wording: one [`Catalogue`] (its shape in `shape.rs`) per language
//! (`en.rs`, `zh_cn.rs`), each a single `static` of that struct, so a language that lacks a
//! sentence the other has does not compile. Only sentences live here; which facts a
//! report states, and in what order, is the renderers' (`report.rs`, `rates.rs`,
//! `static_suggestion.rs`), so every language says the same things.

mod en;
mod shape;
mod zh_cn;

pub use shape::{Catalogue, CliWords, ExitMeaning, ExitWords, RateWords, ReportWords, StaticWords};

use crate::Locale;

/// The wording of `locale`.
pub fn catalogue(locale: Locale) -> &'static Catalogue {
    match locale {
        Locale::En => &en::EN,
        Locale::ZhCn => &zh_cn::ZH_CN,
    }
}
