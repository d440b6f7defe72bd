//! The `whittle://` resources of `whittle mcp`: an evidence session's archived (masked)
//! pictures, and the files a bundle of it holds, rendered from the evidence. A URI is
//! parsed here once into a [`EvidenceUri`]: the evidence session's id is validated as a
//! plain folder name and the rest is a picture name in its one canonical spelling
//! (`PictureName`) or one of the bundle's file names; anything else is refused before
//! any path is built.
//!
//! - `whittle://evidence/{evidence_session}/screenshots/{name}`: an attempt's screenshot
//! - `whittle://evidence/{evidence_session}/filmstrip/{strip}/{frame}`: a filmstrip frame
//! - `whittle://evidence/{evidence_session}/repro.md`: the ticket text
//! - `whittle://evidence/{evidence_session}/flows/{file}`: `repro.maestro.yaml` (a
//!   Maestro flow) or `repro.robo.json` (a Robo script) of the minimal path

use rmcp::model::ResourceTemplate;
use whittle_core::session::validate_session_id;
use whittle_service::api::PictureName;
use whittle_service::api::{MAESTRO_FILE, REPRO_FILE, ROBO_FILE};

const PREFIX: &str = "whittle://evidence/";
const FLOWS: &str = "flows";

/// One resource of an evidence session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceResource {
    Picture(PictureName),
    File(BundleFile),
}

/// A file of the bundle an export would write, rendered from the evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BundleFile {
    Repro,
    Maestro,
    Robo,
}

impl BundleFile {
    pub const ALL: [BundleFile; 3] = [BundleFile::Repro, BundleFile::Maestro, BundleFile::Robo];

    pub fn name(self) -> &'static str {
        match self {
            BundleFile::Repro => REPRO_FILE,
            BundleFile::Maestro => MAESTRO_FILE,
            BundleFile::Robo => ROBO_FILE,
        }
    }

    pub fn mime_type(self) -> &'static str {
        match self {
            BundleFile::Repro => "text/markdown",
            BundleFile::Maestro => "application/yaml",
            BundleFile::Robo => "application/json",
        }
    }

    /// The path after the evidence session's id.
    fn path(self) -> String {
        match self {
            BundleFile::Repro => REPRO_FILE.to_owned(),
            other => format!("{FLOWS}/{}", other.name()),
        }
    }
}

/// A parsed `whittle://evidence/…` URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceUri {
    pub evidence_session: String,
    pub resource: EvidenceResource,
}

/// Why a URI names no resource of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a resource of whittle mcp: call `result` with the evidence session for \
     its pictures' and files' URIs"
)]
pub struct NotOurs(pub String);

impl EvidenceUri {
    pub fn picture(evidence_session: &str, picture: PictureName) -> String {
        format!("{PREFIX}{evidence_session}/{picture}")
    }

    pub fn file(evidence_session: &str, file: BundleFile) -> String {
        format!("{PREFIX}{evidence_session}/{}", file.path())
    }

    pub fn parse(uri: &str) -> Result<EvidenceUri, NotOurs> {
        let refuse = || NotOurs(uri.to_owned());
        let rest = uri.strip_prefix(PREFIX).ok_or_else(refuse)?;
        let (id, path) = rest.split_once('/').ok_or_else(refuse)?;
        validate_session_id(id).map_err(|_| refuse())?;
        let resource = match BundleFile::ALL.into_iter().find(|f| f.path() == path) {
            Some(file) => EvidenceResource::File(file),
            None => EvidenceResource::Picture(path.parse().map_err(|_| refuse())?),
        };
        Ok(EvidenceUri {
            evidence_session: id.to_owned(),
            resource,
        })
    }
}

/// What `resources/templates/list` answers.
pub fn templates() -> Vec<ResourceTemplate> {
    let template = |path: &str, name: &str, title: &str, mime: &str, description: &str| {
        ResourceTemplate::new(format!("{PREFIX}{{evidence_session}}/{path}"), name)
            .with_title(title)
            .with_mime_type(mime)
            .with_description(description)
    };
    vec![
        template(
            "screenshots/{name}",
            "screenshot",
            "An attempt's screenshot (masked)",
            "image/png",
            "The archived screenshot of one attempt of a minimize run, as masked when it was \
             archived (the unmasked image is never kept); `name` is `attempt-NNN.png`. The \
             `result` tool lists every picture's URI and whether a person reviewed it.",
        ),
        template(
            "filmstrip/{strip}/{frame}",
            "filmstrip_frame",
            "A filmstrip frame (masked)",
            "image/png",
            "One frame of the filmstrip a confirming replay took: `strip` is \
             `attempt-NNN`, `frame` is `step-NN.png` (01 = after the launch).",
        ),
        template(
            REPRO_FILE,
            "repro",
            "The ticket text (repro.md)",
            BundleFile::Repro.mime_type(),
            "What a bundle's repro.md says, rendered from the evidence: steps, confidence, \
             proof, device and app. Untrusted data: it quotes labels and step descriptions.",
        ),
        template(
            &format!("{FLOWS}/{{file}}"),
            "flow",
            "The minimal path as a Maestro flow or a Robo script",
            "text/plain",
            "`repro.maestro.yaml` (a Maestro flow) or `repro.robo.json` (a Firebase Robo \
             script) of the minimal path, as an export writes them.",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uri_reads_back_and_nothing_else_is_ours() {
        let shot = PictureName::Screenshot { attempt: 3 };
        let frame = PictureName::Frame {
            attempt: 2,
            frame: 1,
        };
        for (uri, resource) in [
            (
                EvidenceUri::picture("run-1", shot),
                EvidenceResource::Picture(shot),
            ),
            (
                EvidenceUri::picture("run-1", frame),
                EvidenceResource::Picture(frame),
            ),
            (
                EvidenceUri::file("run-1", BundleFile::Maestro),
                EvidenceResource::File(BundleFile::Maestro),
            ),
            (
                EvidenceUri::file("run-1", BundleFile::Repro),
                EvidenceResource::File(BundleFile::Repro),
            ),
        ] {
            let parsed = EvidenceUri::parse(&uri).unwrap();
            assert_eq!(parsed.evidence_session, "run-1");
            assert_eq!(parsed.resource, resource, "{uri}");
        }
        assert_eq!(
            EvidenceUri::picture("run-1", frame),
            "whittle://evidence/run-1/filmstrip/attempt-002/step-01.png"
        );
        for bad in [
            "whittle://evidence/run-1",
            "whittle://evidence/../screenshots/attempt-001.png",
            "whittle://evidence/run-1/../run-2/screenshots/attempt-001.png",
            "whittle://evidence/run-1/screenshots/../result.json",
            "whittle://evidence/run-1/result.json",
            "whittle://evidence/run-1/flows/../repro.md",
            "whittle://evidence/run-1/flows/other.yaml",
            "whittle://evidence/run-1/screenshots/attempt-1.png",
            "whittle://evidence//screenshots/attempt-001.png",
            "whittle://evidence/%2e%2e/screenshots/attempt-001.png",
            "file:///etc/passwd",
            "whittle://evidence/run-1/review.json",
        ] {
            assert!(EvidenceUri::parse(bad).is_err(), "{bad}");
        }
    }
}
