//! How a step path is written wherever Whittle shows one: the report, the rates block,
//! the static suggestion and the CLI's lists all print `repro_path` the same way.

/// `[1,3,7,12]`, the way `repro_path` is written.
pub fn format_path(path: &[u32]) -> String {
    let items: Vec<String> = path.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(","))
}
