//! Injected faults (`--fault KIND`, repeatable), so clients can be tested against a
//! device backend that misbehaves. See the module comment of `sim` for the list;
//! `faulty` applies them around any backend.
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Every capture turns `failed` ("logcat process exited") once its device has seen
    /// this many launches since the capture started.
    CaptureDiesAfter(u32),
    /// That tool never answers.
    Hang(String),
    /// That tool answers with a text block that is not its contract shape.
    Garbage(String),
    /// That tool answers with a text block over 16 MiB (a crash stack too long for one
    /// MCP message).
    Oversize(String),
    /// The server process exits on the launch after this many launches (all devices).
    ExitAfterLaunches(u32),
    /// Every device disappears (as when a USB cable is pulled) on the launch after this
    /// many launches: no device is listed, each device call fails, captures fail.
    DeviceGoneAfterLaunches(u32),
}

/// Why a `--fault` value names no fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FaultSpecError {
    #[error("fault {spec:?} must be KIND=VALUE")]
    NotKindValue { spec: String },
    #[error("fault {kind}: {value:?} is not a count")]
    NotACount { kind: String, value: String },
    #[error("fault {kind}: a tool name is required")]
    NoTool { kind: String },
    #[error(
        "unknown fault {kind:?} (capture-dies-after=N, hang=TOOL, garbage=TOOL, \
         oversize=TOOL, exit-after-launches=N, device-gone-after-launches=N)"
    )]
    UnknownKind { kind: String },
}

impl FromStr for Fault {
    type Err = FaultSpecError;

    fn from_str(s: &str) -> Result<Self, FaultSpecError> {
        let (kind, value) = s
            .split_once('=')
            .ok_or_else(|| FaultSpecError::NotKindValue {
                spec: s.to_string(),
            })?;
        let count = || {
            value.parse::<u32>().map_err(|_| FaultSpecError::NotACount {
                kind: kind.to_string(),
                value: value.to_string(),
            })
        };
        let tool = || {
            if value.is_empty() {
                Err(FaultSpecError::NoTool {
                    kind: kind.to_string(),
                })
            } else {
                Ok(value.to_string())
            }
        };
        match kind {
            "capture-dies-after" => Ok(Fault::CaptureDiesAfter(count()?)),
            "hang" => Ok(Fault::Hang(tool()?)),
            "garbage" => Ok(Fault::Garbage(tool()?)),
            "oversize" => Ok(Fault::Oversize(tool()?)),
            "exit-after-launches" => Ok(Fault::ExitAfterLaunches(count()?)),
            "device-gone-after-launches" => Ok(Fault::DeviceGoneAfterLaunches(count()?)),
            other => Err(FaultSpecError::UnknownKind {
                kind: other.to_string(),
            }),
        }
    }
}

/// Size of the `oversize` fault's answer text: over rmcp's 16 MiB per message however
/// the transport frames it.
pub const OVERSIZE_BYTES: usize = 17 * 1024 * 1024;

/// The `oversize` fault's answer: a Java crash stack of `OVERSIZE_BYTES`, as a runaway
/// recursion leaves in a log.
pub fn oversized_stack() -> String {
    const HEAD: &str = "java.lang.StackOverflowError: stack size 8MB\n";
    const FRAME: &str = "\tat com.example.shop.Cart.total(Cart.java:42)\n";
    let mut stack = String::with_capacity(OVERSIZE_BYTES + FRAME.len());
    stack.push_str(HEAD);
    while stack.len() < OVERSIZE_BYTES {
        stack.push_str(FRAME);
    }
    stack
}

/// The active faults, queried by `FaultyBackend`.
#[derive(Debug, Clone, Default)]
pub struct Faults(Vec<Fault>);

impl Faults {
    pub fn new(faults: Vec<Fault>) -> Self {
        Faults(faults)
    }

    pub fn hangs(&self, tool: &str) -> bool {
        self.0
            .iter()
            .any(|f| matches!(f, Fault::Hang(t) if t == tool))
    }

    pub fn garbles(&self, tool: &str) -> bool {
        self.0
            .iter()
            .any(|f| matches!(f, Fault::Garbage(t) if t == tool))
    }

    pub fn oversizes(&self, tool: &str) -> bool {
        self.0
            .iter()
            .any(|f| matches!(f, Fault::Oversize(t) if t == tool))
    }

    pub fn capture_dies_after(&self) -> Option<u32> {
        self.0.iter().find_map(|f| match f {
            Fault::CaptureDiesAfter(n) => Some(*n),
            _ => None,
        })
    }

    pub fn device_gone_after_launches(&self) -> Option<u32> {
        self.0.iter().find_map(|f| match f {
            Fault::DeviceGoneAfterLaunches(n) => Some(*n),
            _ => None,
        })
    }

    pub fn exit_after_launches(&self) -> Option<u32> {
        self.0.iter().find_map(|f| match f {
            Fault::ExitAfterLaunches(n) => Some(*n),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_kind_and_refuses_nonsense() {
        assert_eq!(
            "hang=tap_element".parse(),
            Ok(Fault::Hang("tap_element".into()))
        );
        assert_eq!(
            "capture-dies-after=2".parse(),
            Ok(Fault::CaptureDiesAfter(2))
        );
        assert_eq!(
            "exit-after-launches=0".parse(),
            Ok(Fault::ExitAfterLaunches(0))
        );
        assert_eq!("garbage=x".parse(), Ok(Fault::Garbage("x".into())));
        assert_eq!("oversize=x".parse(), Ok(Fault::Oversize("x".into())));
        assert_eq!(
            "device-gone-after-launches=2".parse(),
            Ok(Fault::DeviceGoneAfterLaunches(2))
        );
        assert!("hang".parse::<Fault>().is_err());
        assert!("hang=".parse::<Fault>().is_err());
        assert!("capture-dies-after=two".parse::<Fault>().is_err());
        assert!("explode=1".parse::<Fault>().is_err());
    }
}
