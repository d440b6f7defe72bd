//! The language a report is written in, chosen the POSIX way from the environment
//! (`LC_ALL`, then `LC_MESSAGES`, then `LANG`; the first non-empty one wins).

/// English is the default: the report's source wording and the `C`/`POSIX` locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Locale {
    #[default]
    En,
    /// Simplified Chinese, in the seed's own result wording.
    ZhCn,
}

/// The variables that name the message language, in the order POSIX consults them.
pub const LOCALE_VARS: [&str; 3] = ["LC_ALL", "LC_MESSAGES", "LANG"];

impl Locale {
    /// Parses a `LANG`-like value: `zh_CN.UTF-8`, `zh-CN`, `zh`, `zh_SG@pinyin` → Chinese
    /// (Whittle has one Chinese: Simplified); anything else (`C`, `POSIX`, `en_US.UTF-8`,
    /// garbage) → English.
    pub fn from_env_value(value: &str) -> Locale {
        let language = value
            .trim()
            .split(['.', '@'])
            .next()
            .unwrap_or_default()
            .split(['_', '-'])
            .next()
            .unwrap_or_default();
        if language.eq_ignore_ascii_case("zh") {
            Locale::ZhCn
        } else {
            Locale::En
        }
    }

    /// The locale a program run with these variables should use: the first of
    /// `LC_ALL`, `LC_MESSAGES`, `LANG` that is set and non-empty decides; none → English.
    /// `lookup` is `std::env::var(..).ok()` in a binary, a map in a test.
    pub fn from_posix_env(lookup: impl Fn(&str) -> Option<String>) -> Locale {
        LOCALE_VARS
            .iter()
            .filter_map(|name| lookup(name))
            .find(|value| !value.trim().is_empty())
            .map_or(Locale::En, |value| Locale::from_env_value(&value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lang_values_naming_chinese_are_chinese() {
        for value in [
            "zh_CN.UTF-8",
            "zh-CN",
            "zh",
            "ZH_cn",
            "zh_SG@pinyin",
            "zh_TW.Big5",
        ] {
            assert_eq!(Locale::from_env_value(value), Locale::ZhCn, "{value}");
        }
    }

    #[test]
    fn every_other_value_is_english() {
        for value in [
            "C",
            "POSIX",
            "C.UTF-8",
            "en_US.UTF-8",
            "de_DE",
            "",
            "zhuang",
            "z",
        ] {
            assert_eq!(Locale::from_env_value(value), Locale::En, "{value}");
        }
    }

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        }
    }

    #[test]
    fn the_first_non_empty_variable_wins_in_posix_order() {
        let zh = "zh_CN.UTF-8";
        assert_eq!(
            Locale::from_posix_env(env(&[("LC_ALL", "C"), ("LANG", zh)])),
            Locale::En
        );
        assert_eq!(
            Locale::from_posix_env(env(&[("LC_ALL", ""), ("LC_MESSAGES", zh), ("LANG", "C")])),
            Locale::ZhCn
        );
        assert_eq!(Locale::from_posix_env(env(&[("LANG", zh)])), Locale::ZhCn);
        assert_eq!(
            Locale::from_posix_env(env(&[("LC_MESSAGES", "en_GB"), ("LANG", zh)])),
            Locale::En
        );
        assert_eq!(Locale::from_posix_env(env(&[])), Locale::En);
    }
}
