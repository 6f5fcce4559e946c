//! Records the commit the binary is built from, for `chess5d --version`.

use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    // An explicit value wins (packagers building from a tarball set it); otherwise ask git.
    let commit = std::env::var("CHESS5D_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| {
            let hash = git(&["rev-parse", "--short=10", "HEAD"])?;
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            Some(if dirty { format!("{hash}-modified") } else { hash })
        });
    println!(
        "cargo:rustc-env=CHESS5D_COMMIT={}",
        commit.as_deref().unwrap_or("unknown commit")
    );
    println!("cargo:rerun-if-env-changed=CHESS5D_COMMIT");
    // Rebuild when HEAD moves or the index changes (worktrees keep these in different places).
    let mut watched = vec!["HEAD".to_string(), "index".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
