//! Every example of the README, run as written: each `$ ` line of a ```console block is run by
//! `sh` in a scratch directory with this build's `chess5d` first on the PATH, and the lines shown
//! under it must be what it prints. A shown line ending in `...` matches any line starting with
//! the text before it; a shown `...` alone stands for the rest of the output. Commands are run
//! in order in one directory, so a block may write a file a later command reads.

use std::path::Path;
use std::process::{Command, Stdio};

struct Example {
    command: String,
    expected: Vec<String>,
    line: usize,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (i, line) in readme.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_console = !in_console && line.trim() == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.push(Example {
                command: cmd.to_string(),
                expected: Vec::new(),
                line: i + 1,
            });
        } else if line.trim().is_empty() {
            // A blank line ends the shown output; the next command starts with `$ `.
            if let Some(last) = out.last_mut() {
                last.expected.push(String::new());
            }
        } else if let Some(last) = out.last_mut() {
            last.expected.push(line.to_string());
        }
    }
    for e in &mut out {
        while e.expected.last().is_some_and(|l| l.is_empty()) {
            e.expected.pop();
        }
    }
    out
}

fn matches(expected: &[String], actual: &str) -> Result<(), String> {
    let actual: Vec<&str> = actual.lines().collect();
    for (i, want) in expected.iter().enumerate() {
        if want == "..." {
            return Ok(());
        }
        let Some(got) = actual.get(i) else {
            return Err(format!("output ends before shown line {}: '{want}'", i + 1));
        };
        let ok = match want.strip_suffix("...") {
            Some(prefix) => got.starts_with(prefix.trim_end()),
            None => got.trim_end() == want.trim_end(),
        };
        if !ok {
            return Err(format!("line {}: shown '{want}', printed '{got}'", i + 1));
        }
    }
    if !expected.is_empty() && actual.len() > expected.len() {
        return Err(format!(
            "printed {} lines, the README shows {} (end the shown output with '...' if it is cut)",
            actual.len(),
            expected.len()
        ));
    }
    Ok(())
}

#[test]
fn every_readme_example_runs_as_shown() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() >= 8, "the README's console examples were not found");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_chess5d")).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let scratch = std::env::temp_dir().join(format!("chess5d-readme-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut failures = Vec::new();
    for e in &examples {
        let out = Command::new("sh")
            .arg("-c")
            .arg(&e.command)
            .current_dir(&scratch)
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            failures.push(format!("README line {}: `{}` failed: {stderr}", e.line, e.command));
        } else if stderr.contains("panicked") {
            failures.push(format!("README line {}: `{}` panicked: {stderr}", e.line, e.command));
        } else if let Err(why) = matches(&e.expected, &stdout) {
            failures.push(format!("README line {}: `{}`: {why}", e.line, e.command));
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_matcher_refuses_what_differs() {
    let shown = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    assert!(matches(&shown("a\nb"), "a\nb\n").is_ok());
    assert!(matches(&shown("a\nc"), "a\nb\n").is_err());
    assert!(matches(&shown("a"), "a\nb\n").is_err());
    assert!(matches(&shown("a\n..."), "a\nb\n").is_ok());
    assert!(matches(&shown("x y ..."), "x y z\n").is_ok());
    assert!(matches(&shown("x z ..."), "x y z\n").is_err());
    assert!(matches(&shown("a\nb"), "a\n").is_err());
}
