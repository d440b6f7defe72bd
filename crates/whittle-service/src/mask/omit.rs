use super::DecodeFailure;

/// Why a screenshot was not archived. Each says what could not be trusted; none carries
/// text read from the screen, because the reason is written into the evidence session's
/// step notes and shown as a warning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OmitReason {
    #[error("screenshot could not be decoded: {0}")]
    Undecodable(DecodeFailure),
    #[error("no UI hierarchy to locate private data")]
    NoHierarchy,
    #[error(
        "the screen changed while it was captured (the UI hierarchy read before the \
         screenshot differs from the one read after it)"
    )]
    ScreenChanged,
    #[error(
        "the UI hierarchy is empty (as when the app has just crashed) but the screenshot \
         is not blank"
    )]
    EmptyHierarchy,
    #[error(
        "the UI hierarchy names no node's package, so it cannot tell whether the screen \
         is {app}'s"
    )]
    NoPackageInfo { app: String },
    #[error("no node of {app} is on screen (the UI hierarchy shows {shown})")]
    NotTheApp { app: String, shown: String },
    #[error(
        "screenshot is {width}x{height} but the UI hierarchy spans \
         [{},{}][{},{}], which is neither that size nor a uniform scale of it",
        frame[0], frame[1], frame[2], frame[3]
    )]
    ExtentMismatch {
        width: u32,
        height: u32,
        frame: [i64; 4],
    },
}
