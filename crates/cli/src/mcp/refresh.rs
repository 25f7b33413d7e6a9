//! Keeping the code index in step with the files while `explore mcp` runs.
//!
//! A coding agent edits the repository between its calls, and a `code` answer from before
//! the edit points at lines that moved or symbols that are gone. So the server watches the
//! repository (inotify, FSEvents, … through `notify`) and, once the files it indexes have
//! been quiet for [`QUIET`], refreshes the index on the blocking pool: the cached graph is
//! re-checked file by file and only changed files are parsed again. Calls made meanwhile
//! are answered from the previous graph, never blocked; an edit made during a refresh
//! triggers one more.
//!
//! Only events that can change the graph count: an indexed source file (`.go`, `.py`), a
//! `go.mod`, a `.gitignore`, or a removal or rename that may be a directory. Hidden paths
//! (`.git/` above all) are skipped like the index skips them, so `git` and editors' swap
//! files don't keep it busy.

use std::path::{Component, Path};
use std::sync::Arc;
use std::time::Duration;

use explore_tools::code::{CodeTool, Language};
use notify::event::{EventKind, ModifyKind};
use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How long the indexed files must be left alone before a refresh: an editor's save or a
/// `git checkout` is a burst of events, and one refresh after it is enough.
pub const QUIET: Duration = Duration::from_millis(300);

/// Watches `root` and refreshes `code`'s index after changes, starting once `first_build`
/// (the startup build) is done, for as long as the runtime runs. Setting the watch up
/// walks every directory (inotify watches each one), so it happens on the blocking pool,
/// not before the server answers. A repository that cannot be watched is logged, and its
/// answers stay as of startup.
pub fn watch(code: Arc<CodeTool>, root: &Path, first_build: JoinHandle<()>) {
    let root = root.to_path_buf();
    tokio::spawn(async move {
        let (tx, rx) = mpsc::unbounded_channel();
        let watcher = match tokio::task::spawn_blocking(move || start_watcher(&root, tx)).await {
            Ok(Ok(w)) => w,
            Ok(Err(e)) => {
                tracing::warn!(
                    "cannot watch the repository ({e}); the code index will not follow edits"
                );
                return;
            }
            Err(e) => {
                tracing::error!("setting up the file watch panicked: {e}");
                return;
            }
        };
        refresh_loop(code, rx, first_build).await;
        drop(watcher);
    });
}

/// A watcher sending one message per event that [`affects_index`].
fn start_watcher(
    root: &Path,
    changes: mpsc::UnboundedSender<()>,
) -> notify::Result<RecommendedWatcher> {
    let base = root.to_path_buf();
    let mut watcher =
        notify::recommended_watcher(move |event: notify::Result<Event>| match event {
            Ok(event) if affects_index(&base, &event) => {
                let _ = changes.send(());
            }
            Ok(_) => {}
            Err(e) => tracing::debug!("file watch error: {e}"),
        })?;
    watcher.watch(root, RecursiveMode::Recursive)?;
    Ok(watcher)
}

/// Refreshes after each burst of changes until the watcher is gone (never, while the
/// watcher lives in the task that runs this).
async fn refresh_loop(
    code: Arc<CodeTool>,
    mut changes: mpsc::UnboundedReceiver<()>,
    first_build: JoinHandle<()>,
) {
    // A refresh racing the startup build would do its work twice.
    let _ = first_build.await;
    while changes.recv().await.is_some() {
        loop {
            match tokio::time::timeout(QUIET, changes.recv()).await {
                Ok(Some(())) => continue,
                Ok(None) => return,
                Err(_quiet) => break,
            }
        }
        let code = code.clone();
        match tokio::task::spawn_blocking(move || code.index()).await {
            Ok(Ok(stats)) => tracing::info!(
                "code index refreshed: {} files parsed again, {} reused ({:.3} s)",
                stats.parsed,
                stats.reused,
                stats.seconds
            ),
            Ok(Err(e)) => tracing::warn!("the code index could not be refreshed: {e}"),
            Err(e) => tracing::error!("the code index refresh panicked: {e}"),
        }
    }
}

/// Whether `event` may change what the index holds.
fn affects_index(root: &Path, event: &Event) -> bool {
    let structural = matches!(
        event.kind,
        EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))
    );
    let content = matches!(
        event.kind,
        EventKind::Create(_)
            | EventKind::Remove(_)
            | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Name(_) | ModifyKind::Any)
    );
    content
        && event
            .paths
            .iter()
            .any(|p| indexed_path(root, p, structural))
}

/// An indexed file, a file that steers the index, or (for removals and renames) a path
/// without an extension, which may be a directory of indexed files.
fn indexed_path(root: &Path, path: &Path, structural: bool) -> bool {
    let Ok(rel) = path.strip_prefix(root) else {
        return false;
    };
    if rel.components().any(is_hidden) && !is_gitignore(rel) {
        return false;
    }
    let name = rel.to_string_lossy();
    Language::of_path(&name).is_some()
        || rel.ends_with("go.mod")
        || is_gitignore(rel)
        || (structural && rel.extension().is_none())
}

fn is_hidden(c: Component<'_>) -> bool {
    matches!(c, Component::Normal(n) if n.to_string_lossy().starts_with('.'))
}

fn is_gitignore(rel: &Path) -> bool {
    rel.file_name().is_some_and(|n| n == ".gitignore")
        && !rel
            .components()
            .any(|c| matches!(c, Component::Normal(n) if n == ".git"))
}

#[cfg(test)]
mod tests {
    use notify::event::{CreateKind, DataChange, ModifyKind, RemoveKind, RenameMode};

    use super::*;

    /// An event of `kind` on `paths`, relative to `root`.
    fn event(kind: EventKind, root: &Path, paths: &[&str]) -> Event {
        let mut e = Event::new(kind);
        e.paths = paths.iter().map(|p| root.join(p)).collect();
        e
    }

    #[test]
    fn only_changes_to_what_the_index_reads_count() {
        let root = Path::new("/repo");
        let write = EventKind::Modify(ModifyKind::Data(DataChange::Content));
        let create = EventKind::Create(CreateKind::File);
        let remove = EventKind::Remove(RemoveKind::Any);
        let rename = EventKind::Modify(ModifyKind::Name(RenameMode::Both));
        let read = EventKind::Access(notify::event::AccessKind::Read);

        assert!(affects_index(
            root,
            &event(write, root, &["internal/model/issue.go"])
        ));
        assert!(affects_index(root, &event(create, root, &["app/main.py"])));
        assert!(affects_index(root, &event(write, root, &["go.mod"])));
        assert!(affects_index(root, &event(write, root, &[".gitignore"])));
        assert!(affects_index(
            root,
            &event(remove, root, &["internal/model"])
        ));
        assert!(affects_index(
            root,
            &event(rename, root, &["internal/old", "internal/new"])
        ));

        // Not indexed, hidden, outside the repository, or not a change.
        assert!(!affects_index(root, &event(write, root, &["README.md"])));
        assert!(!affects_index(
            root,
            &event(create, root, &["internal/model"])
        ));
        assert!(!affects_index(root, &event(write, root, &[".git/index"])));
        assert!(!affects_index(
            root,
            &event(write, root, &[".venv/lib/x.py"])
        ));
        assert!(!affects_index(
            root,
            &event(write, root, &["internal/.issue.go.swp"])
        ));
        assert!(!affects_index(
            root,
            &event(read, root, &["internal/model/issue.go"])
        ));
        assert!(!affects_index(
            root,
            &event(write, Path::new("/elsewhere"), &["x.go"])
        ));
    }
}
