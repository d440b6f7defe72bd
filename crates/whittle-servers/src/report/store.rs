//! The session store behind the `report` tools: `<workspace>/sessions/<id>/` with
//! `meta.json` (replaced atomically), `steps.jsonl` (append-only) and `report.md`.
use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};
use whittle_contract::report::{
    FinalizeArgs, RecordStepArgs, SessionListing, SessionPath, StartSessionArgs,
};
use whittle_core::model::{SessionMeta, SessionStatus, Step, StepResult};
use whittle_core::session::{
    resolve_session_dir, validate_session_id, META_FILE, SESSIONS_DIR, STEPS_FILE,
};

use super::error::ReportError;
use super::{id, markdown};
use crate::atomic::{write_atomic, FileMode};

pub const REPORT_FILE: &str = "report.md";
/// Ids tried before `start_session` gives up (`<base>`, `<base>-2`, ...).
const MAX_ID_ATTEMPTS: u32 = 1000;

pub struct ReportStore {
    /// Canonical `<workspace>/sessions`.
    sessions: PathBuf,
    workspace: PathBuf,
    /// One lock per session: appends and the meta rewrite of a session never interleave.
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl ReportStore {
    /// Opens (creating `sessions/` if needed) the workspace at `workspace`.
    pub fn open(workspace: &Path) -> Result<ReportStore, ReportError> {
        let sessions = workspace.join(SESSIONS_DIR);
        fs::create_dir_all(&sessions).map_err(ReportError::io(&sessions))?;
        let workspace = workspace
            .canonicalize()
            .map_err(ReportError::io(workspace))?;
        Ok(ReportStore {
            sessions: workspace.join(SESSIONS_DIR),
            workspace,
            locks: Mutex::new(HashMap::new()),
        })
    }

    fn lock_for(&self, session_id: &str) -> Arc<tokio::sync::Mutex<()>> {
        // A poisoned map only means another call panicked mid-insert; the map is still valid.
        let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
        locks.entry(session_id.to_string()).or_default().clone()
    }

    /// The existing folder of `session_id` (validated, confined to `sessions/`).
    fn dir_of(&self, session_id: &str) -> Result<PathBuf, ReportError> {
        validate_session_id(session_id).map_err(|source| ReportError::InvalidId {
            id: session_id.to_string(),
            source,
        })?;
        resolve_session_dir(&self.workspace, session_id).map_err(|source| ReportError::Resolve {
            id: session_id.to_string(),
            source,
        })
    }

    pub fn get_session_path(&self, session_id: &str) -> Result<SessionPath, ReportError> {
        let dir = self.dir_of(session_id)?;
        Ok(SessionPath {
            session_id: session_id.to_string(),
            session_dir: dir.display().to_string(),
        })
    }

    pub fn start_session(
        &self,
        args: &StartSessionArgs,
        now: chrono::DateTime<chrono::Local>,
    ) -> Result<SessionPath, ReportError> {
        let base = id::base_id(now.naive_local(), &args.name);
        let (session_id, dir) = self.claim_folder(&base)?;
        let text = |key: &str| {
            args.extra
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let meta = SessionMeta {
            session_id: session_id.clone(),
            name: args.name.clone(),
            created_at: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
            status: SessionStatus::Running,
            platform: text("platform").unwrap_or_else(|| "android".to_string()),
            package: text("package"),
            device_id: text("device_id"),
            app_version: None,
            extra: args.extra.clone(),
        };
        write_json(&dir.join(META_FILE), &meta)?;
        tracing::info!(session_id, "session started");
        Ok(SessionPath {
            session_id,
            session_dir: dir.display().to_string(),
        })
    }

    /// Creates the first free `<base>[-N]` folder; `create_dir` fails on an existing
    /// folder, so two concurrent starts can never share one.
    fn claim_folder(&self, base: &str) -> Result<(String, PathBuf), ReportError> {
        for attempt in 1..=MAX_ID_ATTEMPTS {
            let candidate = id::candidate(base, attempt);
            let dir = self.sessions.join(&candidate);
            match fs::create_dir(&dir) {
                Ok(()) => return Ok((candidate, dir)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(source) => return Err(ReportError::Io { path: dir, source }),
            }
        }
        Err(ReportError::NoFreeId {
            base: base.to_string(),
        })
    }

    pub async fn record_step(
        &self,
        args: &RecordStepArgs,
        now: chrono::DateTime<chrono::Local>,
    ) -> Result<u32, ReportError> {
        let result = match args.result.as_str() {
            "ok" => StepResult::Ok,
            "fail" => StepResult::Fail,
            other => return Err(ReportError::InvalidResult(other.to_string())),
        };
        let dir = self.dir_of(&args.session_id)?;
        let lock = self.lock_for(&args.session_id);
        let _guard = lock.lock().await;
        let path = dir.join(STEPS_FILE);
        let steps = read_steps(&path)?;
        let index = steps.iter().map(|s| s.index).max().unwrap_or(0) + 1;
        let step = Step {
            index,
            ts: Some(now.to_rfc3339_opts(chrono::SecondsFormat::Millis, false)),
            action: args.action.clone(),
            result,
            notes: args.notes.clone(),
            screenshot_src: args.screenshot_src.clone(),
            screenshot_redacted: args.screenshot_redacted.unwrap_or(false),
        };
        let mut line = serde_json::to_string(&step).map_err(|e| ReportError::CorruptLine {
            path: path.clone(),
            line: steps.len() + 1,
            problem: e.to_string(),
        })?;
        line.push('\n');
        append(&path, line.as_bytes())?;
        tracing::info!(session_id = %args.session_id, index, "step recorded");
        Ok(index)
    }

    pub async fn finalize(&self, args: &FinalizeArgs) -> Result<PathBuf, ReportError> {
        let dir = self.dir_of(&args.session_id)?;
        let lock = self.lock_for(&args.session_id);
        let _guard = lock.lock().await;
        let meta_path = dir.join(META_FILE);
        // Rewritten as a JSON object so fields this server does not know survive.
        let mut raw = read_meta_object(&meta_path)?;
        let status = serde_json::to_value(args.status).unwrap_or(Value::Null);
        raw.insert("status".to_string(), status);
        write_json(&meta_path, &raw)?;
        let meta: SessionMeta =
            serde_json::from_value(Value::Object(raw)).map_err(|e| ReportError::CorruptMeta {
                path: meta_path.clone(),
                problem: e.to_string(),
            })?;
        let steps = read_steps(&dir.join(STEPS_FILE))?;
        let report = dir.join(REPORT_FILE);
        write_atomic(
            &report,
            markdown::render(&meta, &args.summary, &steps).as_bytes(),
            FileMode::Private,
        )
        .map_err(ReportError::io(&report))?;
        tracing::info!(session_id = %args.session_id, "session finalized");
        Ok(report)
    }

    /// Every session folder with a readable `meta.json`, oldest first; others are skipped
    /// (and logged) so one broken folder does not hide the rest.
    pub fn list_sessions(&self) -> Result<Vec<SessionListing>, ReportError> {
        let entries = fs::read_dir(&self.sessions).map_err(ReportError::io(&self.sessions))?;
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(id) = name.to_str() else { continue };
            if validate_session_id(id).is_err() || !entry.path().is_dir() {
                continue;
            }
            let meta_path = entry.path().join(META_FILE);
            let meta = read_meta_object(&meta_path).and_then(|raw| {
                serde_json::from_value::<SessionMeta>(Value::Object(raw)).map_err(|e| {
                    ReportError::CorruptMeta {
                        path: meta_path.clone(),
                        problem: e.to_string(),
                    }
                })
            });
            match meta {
                Ok(meta) => out.push(SessionListing {
                    session_id: id.to_string(),
                    name: meta.name,
                    created_at: meta.created_at,
                    status: meta.status,
                    session_dir: entry.path().display().to_string(),
                }),
                Err(e) => tracing::warn!(session = id, error = %e, "skipping session folder"),
            }
        }
        out.sort_by(|a, b| (&a.created_at, &a.session_id).cmp(&(&b.created_at, &b.session_id)));
        Ok(out)
    }
}

fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), ReportError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| ReportError::CorruptMeta {
        path: path.to_path_buf(),
        problem: e.to_string(),
    })?;
    bytes.push(b'\n');
    write_atomic(path, &bytes, FileMode::Private).map_err(ReportError::io(path))
}

fn read_meta_object(path: &Path) -> Result<Map<String, Value>, ReportError> {
    let text = fs::read_to_string(path).map_err(ReportError::io(path))?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ReportError::CorruptMeta {
            path: path.to_path_buf(),
            problem: "not a JSON object".to_string(),
        }),
        Err(e) => Err(ReportError::CorruptMeta {
            path: path.to_path_buf(),
            problem: e.to_string(),
        }),
    }
}

/// The recorded steps; a missing file means none.
fn read_steps(path: &Path) -> Result<Vec<Step>, ReportError> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(ReportError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    // A last line without its newline was cut off mid-write (the process or the disk
    // died): it was never recorded, and `append` cuts it off before the next line.
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    whole
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str::<Step>(l).map_err(|e| ReportError::CorruptLine {
                path: path.to_path_buf(),
                line: i + 1,
                problem: e.to_string(),
            })
        })
        .collect()
}

/// Appends one complete line; whole lines already there are never rewritten. A last line
/// cut off mid-write is cut away first, so the new line never joins it into a damaged
/// line in the middle of the file (what a resumed run would otherwise leave).
fn append(path: &Path, bytes: &[u8]) -> Result<(), ReportError> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)
        .map_err(ReportError::io(path))?;
    let whole = whole_lines_len(&mut file).map_err(ReportError::io(path))?;
    if file.metadata().map_err(ReportError::io(path))?.len() > whole {
        file.set_len(whole).map_err(ReportError::io(path))?;
    }
    file.write_all(bytes).map_err(ReportError::io(path))?;
    file.sync_data().map_err(ReportError::io(path))
}

/// The length of `file` up to and including its last newline.
fn whole_lines_len(file: &mut fs::File) -> io::Result<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.metadata()?.len();
    let mut end = len;
    let mut buf = [0u8; 4096];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..usize::try_from(end - start).unwrap_or(0)];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(at) = chunk.iter().rposition(|b| *b == b'\n') {
            return Ok(start + at as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

#[cfg(test)]
mod torn_line_tests {
    use super::*;

    #[test]
    fn a_line_cut_off_mid_write_is_never_read_and_cut_away_before_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("steps.jsonl");
        let line = |i: u32| {
            let step = serde_json::json!({"index": i, "action": "tap", "result": "ok"});
            format!("{step}\n")
        };
        std::fs::write(&path, format!("{}{}", line(1), r#"{"index": 2, "act"#)).unwrap();
        let read: Vec<u32> = read_steps(&path).unwrap().iter().map(|s| s.index).collect();
        assert_eq!(read, [1], "the torn line was never recorded");
        append(&path, line(2).as_bytes()).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{}{}", line(1), line(2))
        );
        let read: Vec<u32> = read_steps(&path).unwrap().iter().map(|s| s.index).collect();
        assert_eq!(read, [1, 2]);
    }
}
