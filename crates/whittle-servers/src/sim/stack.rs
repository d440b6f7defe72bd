//! Per-occurrence variation of a crash rule's stack text, the way two real occurrences
//! of one crash differ: pid/tid, addresses, trace timestamps, line numbers and
//! synthetic-lambda indices (as between builds). A client must normalize (the analyzer's
//! fingerprint), not compare strings.
use std::sync::LazyLock;

use regex::{Captures, Regex};

static PID: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(PID: |pid |sysTid=|pid: |tid: )\d+").expect("valid regex"));
static ADDRESS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"0x[0-9a-f]{6,16}").expect("valid regex"));
static TRACE_TIME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}").expect("valid regex"));
static SOURCE_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\.(?:java|kt)):(\d+)\)").expect("valid regex"));
static LAMBDA: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(ExternalSyntheticLambda|lambda\$\w+\$)(\d+)").expect("valid regex")
});

/// The stack of occurrence `n` of a rule, in a process with `pid`, at `now` (RFC 3339).
pub fn vary(template: &str, n: u64, pid: u32, now: &chrono::DateTime<chrono::Utc>) -> String {
    let out = PID.replace_all(template, |c: &Captures| format!("{}{pid}", &c[1]));
    let out = ADDRESS.replace_all(&out, |c: &Captures| {
        let old = u64::from_str_radix(&c[0][2..], 16).unwrap_or(0);
        let width = c[0].len() - 2;
        let shifted = old ^ (n.wrapping_mul(0x9e37_79b9) & 0xff_fff0);
        format!("0x{shifted:0width$x}")
    });
    let stamp = now.format("%Y-%m-%d %H:%M:%S").to_string();
    let out = TRACE_TIME.replace_all(&out, stamp.as_str());
    // Only every other occurrence moves lines and lambdas, so both equal and unequal
    // neighbours occur.
    let shift = n % 2;
    let out = SOURCE_LINE.replace_all(&out, |c: &Captures| {
        let line = c[2].parse::<u64>().unwrap_or(0);
        format!("{}:{})", &c[1], line + shift * 3)
    });
    let out = LAMBDA.replace_all(&out, |c: &Captures| {
        let idx = c[2].parse::<u64>().unwrap_or(0);
        format!("{}{}", &c[1], idx + shift)
    });
    out.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const STACK: &str = "FATAL EXCEPTION: main\nProcess: com.example.shop, PID: 4242\n\
        java.lang.NullPointerException: boom\n\
        \tat com.example.shop.CartActivity.lambda$onCreate$0(CartActivity.kt:88)\n\
        \tat com.example.shop.CartActivity$$ExternalSyntheticLambda2.onClick(Unknown Source:0)\n";

    #[test]
    fn occurrences_differ_only_in_volatile_parts() {
        let now = chrono::Utc::now();
        let a = vary(STACK, 1, 5001, &now);
        let b = vary(STACK, 2, 5002, &now);
        assert_ne!(a, b);
        assert!(a.contains("PID: 5001") && b.contains("PID: 5002"));
        assert!(a.contains("CartActivity.kt:91)") && b.contains("CartActivity.kt:88)"));
        assert!(a.contains("ExternalSyntheticLambda3") && a.contains("lambda$onCreate$1"));
        let digits = |s: &str| {
            s.chars()
                .filter(|c| !c.is_ascii_digit())
                .collect::<String>()
        };
        assert_eq!(digits(&a), digits(&b));
        assert_eq!(digits(&a), digits(STACK));
    }
}
