//! The index build's progress as a display reads it (`code::progress`): one build, in a
//! process of its own so no other test's build mixes in its counts.

use explore_tools::RepoRoot;
use explore_tools::code::progress::{Phase, snapshot};
use explore_tools::code::{CodeTool, IndexOptions};

#[test]
fn a_build_counts_every_file_and_ends_idle() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..5 {
        std::fs::write(
            dir.path().join(format!("f{i}.go")),
            format!("package p\n\nfunc F{i}() {{}}\n"),
        )
        .unwrap();
    }
    assert_eq!(snapshot().phase, Phase::Idle);
    let tool = CodeTool::new(
        RepoRoot::new(dir.path()).unwrap(),
        IndexOptions {
            no_cache: true,
            ..Default::default()
        },
    );
    let stats = tool.index().unwrap();
    assert_eq!(stats.files, 5);
    let after = snapshot();
    assert_eq!((after.phase, after.done, after.total), (Phase::Idle, 5, 5));
}
