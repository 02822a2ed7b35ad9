//! Command-line options read the way GNU `getopt_long` reads them: `--opt=value`, unambiguous
//! abbreviations of long options (`--r`, `--rec` → `--recursive`), combined short flags (`-rf`),
//! options after operands, and `--` ending them.

/// One program's options: its long options (without `--`), its short flags, and which short flags
/// take a value.
pub(crate) struct Spec {
    pub long: &'static [&'static str],
    pub short: &'static str,
    pub short_with_value: &'static str,
}

pub(crate) const RM: Spec = Spec {
    long: &[
        "dir",
        "force",
        "interactive",
        "one-file-system",
        "no-preserve-root",
        "preserve-root",
        "recursive",
        "verbose",
        "help",
        "version",
    ],
    short: "dfiIrRv",
    short_with_value: "",
};

pub(crate) const CHMOD: Spec = Spec {
    long: &[
        "changes",
        "silent",
        "quiet",
        "verbose",
        "no-preserve-root",
        "preserve-root",
        "reference",
        "recursive",
        "help",
        "version",
    ],
    short: "cfvR",
    short_with_value: "",
};

pub(crate) const CHOWN: Spec = Spec {
    long: &[
        "changes",
        "dereference",
        "no-dereference",
        "from",
        "silent",
        "quiet",
        "no-preserve-root",
        "preserve-root",
        "reference",
        "recursive",
        "verbose",
        "help",
        "version",
    ],
    short: "cfhvHLPR",
    short_with_value: "",
};

pub(crate) const SORT: Spec = Spec {
    long: &[
        "ignore-leading-blanks",
        "dictionary-order",
        "ignore-case",
        "general-numeric-sort",
        "ignore-nonprinting",
        "month-sort",
        "human-numeric-sort",
        "numeric-sort",
        "random-sort",
        "random-source",
        "reverse",
        "sort",
        "version-sort",
        "batch-size",
        "check",
        "compress-program",
        "debug",
        "files0-from",
        "key",
        "merge",
        "output",
        "stable",
        "buffer-size",
        "field-separator",
        "temporary-directory",
        "parallel",
        "unique",
        "zero-terminated",
        "help",
        "version",
    ],
    short: "bdfgiMhnRrVcCmsuzkotST",
    short_with_value: "kotST",
};

pub(crate) const UNIQ: Spec = Spec {
    long: &[
        "count",
        "repeated",
        "all-repeated",
        "skip-fields",
        "group",
        "ignore-case",
        "skip-chars",
        "unique",
        "zero-terminated",
        "check-chars",
        "help",
        "version",
    ],
    short: "cdDfisuzw",
    short_with_value: "fsw",
};

/// Whether `given` (a long option without `--`, before any `=`) may name `full`: it is `full` or
/// a start of it, as `getopt_long` and git's option parser take an abbreviation.
pub(crate) fn abbreviates(given: &str, full: &str) -> bool {
    !given.is_empty() && full.starts_with(given)
}

/// What the options of one command line say.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Options {
    /// Long options by full name (`recursive`), short flags as `-r`.
    pub set: Vec<String>,
    pub operands: Vec<String>,
}

impl Options {
    pub fn has(&self, name: &str) -> bool {
        self.set.iter().any(|s| s == name)
    }
}

/// The full name of a long option: itself, or the only one it abbreviates.
fn long_name(spec: &Spec, given: &str) -> Option<&'static str> {
    if let Some(exact) = spec.long.iter().find(|l| **l == given) {
        return Some(exact);
    }
    let mut matches = spec.long.iter().filter(|l| abbreviates(given, l));
    match (matches.next(), matches.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// Read `args` (after the program name). `chmod -w file` — a word that is not made of the
/// program's short flags — is an operand, as `chmod` treats it.
pub(crate) fn parse(spec: &Spec, args: &[String]) -> Options {
    let mut out = Options::default();
    let mut only_operands = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if only_operands || arg == "-" || !arg.starts_with('-') {
            out.operands.push(arg.clone());
        } else if arg == "--" {
            only_operands = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(n, _)| n);
            match long_name(spec, name) {
                Some(full) => out.set.push(full.to_owned()),
                // Unknown or ambiguous: the program refuses it; keep it visible.
                None => out.set.push(format!("--{name}")),
            }
        } else if arg[1..].chars().all(|c| spec.short.contains(c)) {
            for c in arg[1..].chars() {
                out.set.push(format!("-{c}"));
                if spec.short_with_value.contains(c) {
                    iter.next();
                    break;
                }
            }
        } else {
            out.operands.push(arg.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn abbreviations_and_combined_flags() {
        let o = parse(&RM, &args(&["--r", "-f", "/", "--no-p", "--interactive=never"]));
        assert!(o.has("recursive") && o.has("-f") && o.has("no-preserve-root") && o.has("interactive"));
        assert_eq!(o.operands, ["/"]);
        let o = parse(&RM, &args(&["-Rf", "--", "-x"]));
        assert!(o.has("-R") && o.has("-f"));
        assert_eq!(o.operands, ["-x"]);
        // `--v` is ambiguous (verbose, version) and `--p` names `preserve-root` only.
        let o = parse(&RM, &args(&["--v", "--p"]));
        assert!(o.has("--v") && o.has("preserve-root"));
        let o = parse(&CHMOD, &args(&["--rec", "-w", "/"]));
        assert!(o.has("recursive"));
        assert_eq!(o.operands, ["-w", "/"]);
    }
}
