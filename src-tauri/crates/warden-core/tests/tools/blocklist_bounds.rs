//! The blocklist judges every command line in bounded time. It runs inline in the planner, before
//! a call can be cancelled, so a command line built to make its work multiply (stars a glob
//! matcher backtracks over, a word of many `{`, functions nested in functions, `find` judging its
//! `-exec` once per start) would hold the session with no way out. Each is judged in a child
//! process here, which is given a generous time and killed past it: a hang fails the test instead
//! of hanging the suite.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use warden_core::shell::blocklist::{judge, Verdict};

/// Far more than any of these takes once bounded (well under a second each in a debug build);
/// the unbounded judge needed hours.
const GENEROUS: Duration = Duration::from_secs(120);

/// The command lines, named, and what the judge's verdict must say (`None`: any verdict, as long
/// as there is one).
fn multiplying_commands() -> Vec<(&'static str, String, Option<&'static str>)> {
    let stars = "*".repeat(200);
    let many = |word: &str, n: usize| vec![word; n].join(" ");
    vec![
        // Glob matching by recursion was exponential in the stars: 10 s at 16 in a debug build.
        ("200 stars", format!("rm -rf /{stars}x"), Some(": known Known")),
        ("200 stars matching /usr", format!("rm -rf /{stars}r"), Some("recursive delete of `/*")),
        ("200 stars after find", format!("find /{stars}x -delete"), Some(": known Known")),
        ("200 stars in chmod", format!("chmod -R 777 /u{stars}"), Some("recursive `chmod` of `/u*")),
        ("stars and sets", format!("rm -rf /{}", "*[a-z]".repeat(200)), None),
        // Each `{` searched the rest of the word for its `}`: quadratic.
        ("a word of 300,000 `{`", format!("echo {}", "{".repeat(300_000)), Some(": known Known")),
        // Each `(){` searched for its bracket, each body was scanned per function around it.
        ("300,000 unclosed definitions", format!("echo; {}", "()(".repeat(100_000)), None),
        (
            "functions nested 50,000 deep",
            format!("{}{}", "f(){ ".repeat(50_000), "}".repeat(50_000)),
            Some("too intricate to be judged"),
        ),
        // `find` judges its command once per starting point.
        (
            "find with 30,000 starts and a 30,000-word command",
            format!("find {} -exec echo {} {{}} ';'", many("a", 30_000), many("b", 30_000)),
            Some("too intricate to be judged"),
        ),
        // Braces in a word that `eval` joins into a script whose words have braces again: 256
        // times more to read at each level (the unbounded judge ran out of memory).
        ("eval re-expanding braces", eval_brace_chain(4), Some("too intricate to be judged")),
    ]
}

/// `eval` over a word whose braces make 256 words, each of which holds, quoted, the braces of the
/// next level: every level multiplies the script the next one reads by 256.
fn eval_brace_chain(levels: usize) -> String {
    // The innermost script, then each level wraps it: `eval {e,e}…` with the rest quoted once more.
    let braces = "{,}".repeat(8);
    let mut script = "true".to_owned();
    for _ in 0..levels {
        let quoted: String = script
            .chars()
            .flat_map(|c| if c.is_ascii_alphanumeric() { vec![c] } else { vec!['\\', c] })
            .collect();
        script = format!("eval eval{braces}\\ {quoted}");
    }
    script
}

fn verdict_name(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Known => "known",
        Verdict::Unknown { .. } => "unknown",
        Verdict::Blocked(_) => "blocked",
    }
}

/// Run in a child by [`every_command_line_is_judged_in_bounded_time`]: judges one command line
/// (picked by `WARDEN_TEST_JUDGE_CASE`) and prints the verdict.
#[test]
#[ignore = "run by every_command_line_is_judged_in_bounded_time in a child process"]
// The verdict goes to the parent on stdout.
#[allow(clippy::print_stdout)]
fn child_judges_one_command_line() {
    let Ok(case) = std::env::var("WARDEN_TEST_JUDGE_CASE") else { return };
    let cases = multiplying_commands();
    let (name, command, _) =
        cases.iter().find(|(name, _, _)| *name == case).unwrap_or_else(|| panic!("{case}"));
    let verdict = judge(command);
    println!("VERDICT {name}: {} {verdict:?}", verdict_name(&verdict));
}

#[test]
fn every_command_line_is_judged_in_bounded_time() {
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("test binary: {e}"));
    for (name, _, want) in multiplying_commands() {
        // Memory is capped too (4 GB of address space): a judge that multiplies what it holds
        // fails the child instead of the machine.
        let mut child = Command::new("sh")
            .args(["-c", "ulimit -v 4000000 && exec \"$0\" \"$@\""])
            .arg(&exe)
            .args([
                "--exact",
                "tools::blocklist_bounds::child_judges_one_command_line",
                "--ignored",
                "--nocapture",
            ])
            .env("WARDEN_TEST_JUDGE_CASE", name)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn the child test: {e}"));
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap_or_else(|e| panic!("wait: {e}")) {
                break status;
            }
            if started.elapsed() > GENEROUS {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "judging `{name}` took over {} s: the judge does not bound its work",
                    GENEROUS.as_secs()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut output = String::new();
        if let Some(mut out) = child.stdout.take() {
            let _ = out.read_to_string(&mut output);
        }
        assert!(status.success(), "the child judging `{name}` failed ({status}): {output}");
        let line = output
            .lines()
            .find(|l| l.starts_with(&format!("VERDICT {name}: ")))
            .unwrap_or_else(|| panic!("no verdict for `{name}`: {output}"));
        if let Some(want) = want {
            assert!(line.contains(want), "`{name}`: {line}");
        }
    }
}

#[test]
fn honest_commands_are_judged_as_before_within_the_budget() {
    // A long heredoc, a few braces: nowhere near the budget.
    let heredoc =
        format!("cat > notes.txt <<'EOF'\n{}EOF", "a line of notes, {x,y} $(not run)\n".repeat(20_000));
    assert_eq!(judge(&heredoc), Verdict::Known);
    assert_eq!(judge("cp src/{a,b,c}.rs /tmp/ && ls {x,y}{1,2,3}"), Verdict::Known);
    assert!(matches!(judge("rm -rf /{usr,tmp}"), Verdict::Blocked(_)));
}
