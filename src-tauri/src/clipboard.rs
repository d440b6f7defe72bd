//! The system clipboard, written from Rust (*Copy as Markdown*). WebKitGTK's
//! `navigator.clipboard` refuses a write that follows an await, so the window asks the
//! backend instead. On X11 a clipboard's content lives as long as the program that owns
//! it keeps serving it, so the one `arboard::Clipboard` is kept for the window's life
//! (opened on first use: a machine without a display never opens it).

use std::sync::Mutex;

use crate::error::AppError;

#[derive(Default)]
pub struct SystemClipboard {
    open: Mutex<Option<arboard::Clipboard>>,
}

impl SystemClipboard {
    pub fn put_text(&self, text: String) -> Result<(), AppError> {
        let refused = |e: arboard::Error| AppError::ClipboardRefused {
            detail: e.to_string(),
        };
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let clipboard = match &mut *open {
            Some(clipboard) => clipboard,
            slot @ None => slot.insert(arboard::Clipboard::new().map_err(refused)?),
        };
        clipboard.set_text(text).map_err(refused)
    }
}
