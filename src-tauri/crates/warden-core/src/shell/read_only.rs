//! Commands that only read: what the `@read-only` command rule covers. A command is read-only when
//! its program is one of a fixed list, named bare (a path is another program: `./ls` may be the
//! project's own script), and none of its words is an option that writes, deletes or runs
//! something (`sort -o`, `find -delete`, `git diff --output`, `sed -i`). Every word must be
//! literal: a computed word could be any option. Redirections and pipes are the command rule's
//! to judge (an allow rule never covers a redirection into a file), so a pipe of read-only
//! commands is covered and `ls > out` is not.
//!
//! The list is small on purpose: each program on it is known to have no option that writes
//! outside its standard output. What it reads is what the box shows (the project without its
//! secret files, and the toolchains), as any command rule's.

use super::options;

/// The pattern of the rule: `bash: @read-only`.
pub const READ_ONLY_PATTERN: &str = "@read-only";

/// What the pattern means, in a line.
pub const READ_ONLY_MEANS: &str =
    "@read-only: every command that only reads (ls, cat, grep, git status, git log, …), each checked word by word";

/// Programs that write nothing but their output, whatever their arguments.
const ANY_ARGUMENTS: &[&str] = &[
    "basename",
    "b2sum",
    "base32",
    "base64",
    "cat",
    "cksum",
    "cmp",
    "column",
    "comm",
    "cut",
    "df",
    "diff",
    "dirname",
    "du",
    "echo",
    "egrep",
    "expr",
    "false",
    "fgrep",
    "fold",
    "grep",
    "head",
    "id",
    "ls",
    "md5sum",
    "nl",
    "od",
    "paste",
    "printf",
    "pwd",
    "readlink",
    "realpath",
    "rev",
    "seq",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "stat",
    "strings",
    "tac",
    "tail",
    "tr",
    "true",
    "uname",
    "wc",
    "which",
    "whoami",
];

/// Whether the simple command `words` (wrappers peeled, every word literal) only reads.
pub fn reads_only(words: &[String]) -> bool {
    let Some((program, args)) = words.split_first() else { return false };
    if program.contains('/') {
        return false;
    }
    ANY_ARGUMENTS.contains(&program.as_str()) || reads_only_with(program, args)
}

/// The programs read-only only with some arguments, each checked by its own rule.
fn reads_only_with(program: &str, args: &[String]) -> bool {
    match program {
        "date" => date(args),
        "find" => !args.iter().any(|a| FIND_ACTIONS.contains(&a.as_str())),
        "git" => git(args),
        "sed" => sed(args),
        "sort" => {
            let given = options::parse(&options::SORT, args);
            !(given.has("-o") || given.has("output") || given.has("compress-program"))
        }
        // `-o` writes its listing to a file; `-R` writes one into every folder (with `-H`).
        "tree" => !args.iter().any(|a| short_has(a, 'o') || short_has(a, 'R') || names_any(a, &["output"])),
        // The second operand is the file it writes.
        "uniq" => options::parse(&options::UNIQ, args).operands.len() <= 1,
        _ => false,
    }
}

/// `find`'s actions that run, delete or write.
const FIND_ACTIONS: &[&str] =
    &["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"];

/// `--name` or `--name=value`.
fn long_is(arg: &str, name: &str) -> bool {
    arg.strip_prefix(name).is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
}

/// A cluster of short options (`-uo`) that holds `option`.
fn short_has(arg: &str, option: char) -> bool {
    arg.strip_prefix('-').is_some_and(|rest| !rest.starts_with('-') && rest.contains(option))
}

/// Whether `arg` is a long option that may name one of `names` (given whole or abbreviated).
fn names_any(arg: &str, names: &[&str]) -> bool {
    let Some(given) = arg.strip_prefix("--") else { return false };
    let given = given.split_once('=').map_or(given, |(name, _)| name);
    names.iter().any(|name| options::abbreviates(given, name))
}

/// `date` shows the time; `-s` and a bare operand (`date 0101…`) set it.
fn date(args: &[String]) -> bool {
    const FLAGS: &[&str] = &["-u", "--utc", "--universal", "-R", "--rfc-email", "--debug"];
    const WITH_VALUE: &[&str] = &["-d", "--date", "-r", "--reference", "-f", "--file"];
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let a = arg.as_str();
        if WITH_VALUE.contains(&a) {
            args.next();
        } else if !(FLAGS.contains(&a)
            || a.starts_with('+')
            || a.starts_with("-I")
            || ["--iso-8601", "--rfc-3339", "--date", "--reference", "--file"].iter().any(|n| long_is(a, n)))
        {
            return false;
        }
    }
    true
}

/// `sed` only printing lines by number (`sed -n 1,20p`, `sed -n '$p'`): a script of any other kind
/// may write (`w`), run (`e`) or edit in place (`-i`).
fn sed(args: &[String]) -> bool {
    const FLAGS: &[&str] = &[
        "-n",
        "--quiet",
        "--silent",
        "-E",
        "-r",
        "--regexp-extended",
        "-s",
        "--separate",
        "-z",
        "--null-data",
        "-u",
    ];
    let mut scripts = Vec::new();
    let mut operands = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let a = arg.as_str();
        if a == "-e" || a == "--expression" {
            let Some(script) = args.next() else { return false };
            scripts.push(script.as_str());
        } else if let Some(script) = a.strip_prefix("--expression=") {
            scripts.push(script);
        } else if a.starts_with('-') && a != "-" {
            if !FLAGS.contains(&a) {
                return false;
            }
        } else {
            operands.push(a);
        }
    }
    // Without `-e`, the first operand is the script (and the rest are files).
    if scripts.is_empty() {
        scripts.extend(operands.first());
    }
    !scripts.is_empty() && scripts.iter().all(|s| prints_lines(s))
}

/// A sed script of line addresses and `p` or `q` only: `5p`, `1,20p`, `$p`, `10q`.
fn prints_lines(script: &str) -> bool {
    let Some(addresses) = script.strip_suffix('p').or_else(|| script.strip_suffix('q')) else { return false };
    let address = |a: &str| a == "$" || (!a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()));
    match addresses.split_once(',') {
        Some((from, to)) => address(from) && address(to),
        None => address(addresses),
    }
}

/// `git` subcommands that show the repository without changing it, with no global option before
/// them (`-c`, `-C`, `--git-dir` change what runs or where).
fn git(args: &[String]) -> bool {
    const SHOWING: &[&str] = &[
        "status",
        "log",
        "diff",
        "show",
        "rev-parse",
        "ls-files",
        "blame",
        "describe",
        "shortlog",
        "grep",
        "branch",
    ];
    let Some((subcommand, args)) = args.split_first() else { return false };
    if !SHOWING.contains(&subcommand.as_str()) {
        return false;
    }
    // Options that write a file or run a program of the caller's choosing.
    let runs_or_writes = |a: &String| {
        names_any(a, &["output", "ext-diff", "open-files-in-pager", "exec"])
            || (subcommand == "grep" && short_has(a, 'O'))
    };
    if args.iter().any(runs_or_writes) {
        return false;
    }
    if subcommand == "branch" {
        return branch_lists(args);
    }
    true
}

/// `git branch` listing, never making, moving or deleting a branch.
fn branch_lists(args: &[String]) -> bool {
    const LISTING: &[&str] = &[
        "-a",
        "--all",
        "-r",
        "--remotes",
        "-v",
        "-vv",
        "--verbose",
        "-l",
        "--list",
        "--show-current",
        "--no-color",
        "--color",
    ];
    let listing = args.iter().any(|a| a == "-l" || a == "--list");
    args.iter().all(|a| if a.starts_with('-') { LISTING.contains(&a.as_str()) } else { listing })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(command: &str) -> Vec<String> {
        command.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn commands_that_only_read_are_told_from_those_that_write_or_run() {
        let reading = [
            "ls -la",
            "cat README.md",
            "git status",
            "git log --oneline -3",
            "git diff --stat",
            "git branch",
            "git branch -a -v",
            "git branch --list feat*",
            "git show --stat HEAD",
            "grep -rn TODO src",
            "sort -u docs/words.txt",
            "uniq docs/words.txt",
            "sed -n 1,2p README.md",
            "sed -n $p README.md",
            "sed -n -e 5p -e 10,12p a",
            "date -u",
            "date +%s",
            "date -d yesterday +%F",
            "find src -name *.rs -type f",
            "tree -L 2",
            "wc -l README.md",
        ];
        for command in reading {
            assert!(reads_only(&words(command)), "{command} should read only");
        }
        let writing = [
            "./ls",
            "/tmp/cat x",
            "rm -rf x",
            "touch a",
            "awk {print} a",
            "python3 -c x",
            "git push",
            "git -c core.pager=x log",
            "git -C .. status",
            "git commit -m x",
            "git branch new",
            "git branch -D old",
            "git branch -m a b",
            "git diff --output=patch",
            "git log --output x",
            "git diff --ext-diff",
            "git grep -Ovim x",
            "git grep --open-files-in-pager=vim x",
            "git",
            "sort -o out in",
            "sort -uo out in",
            "sort --output=out in",
            "sort --compress-program=sh in",
            "uniq in out",
            "sed -i s/a/b/ f",
            "sed -n 1w/tmp/x f",
            "sed s/a/b/e f",
            "sed -n 1p -i f",
            "sed 1e f",
            "sed",
            "date -s 12:00",
            "date --set=12:00",
            "date 010112002026",
            "find . -delete",
            "find . -exec rm {} ;",
            "find . -fprint out",
            "tree -o out",
            "tree -ao out",
            "tree -R -H . -L 1",
            // Long options abbreviated, as getopt_long and git's parser take them.
            "sort --out=out in",
            "sort --o out in",
            "sort --compress=sh in",
            "git diff --out=patch",
            "git log --outp x",
            "git diff --ext",
            "git grep --open=vim x",
            "tree --out x",
        ];
        for command in writing {
            assert!(!reads_only(&words(command)), "{command} should not count as read-only");
        }
    }
}
