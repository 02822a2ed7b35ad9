//! What one call needs beyond running: a command line for the blocklist to judge, the network,
//! leaving the box, a clock of its own. Each tool declares it for its input ([`super::Tool::needs`]);
//! the policy decides on it, the registry times the call by it, and the runner turns the approved
//! call into the box it runs in. None of them knows a tool by its name: a second tool that runs
//! commands gets the blocklist, the asks and the box by declaring a command here.

use std::time::Duration;

/// What a call needs of the policy, the registry and the box. `Default` is "nothing special": no
/// command, no network beyond the box's, inside the box, the configured timeout.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Needs {
    /// The shell command line the call runs. The blocklist judges it (refused in every trust level
    /// when blocked, asked about outside a box when it cannot be judged), Autonomous asks before it
    /// when no box contains it, and "Allow for this session" remembers its prefix, not the tool.
    pub command: Option<String>,
    /// The call wants the network where the box has none: it asks, and once approved runs in the
    /// box with the network.
    pub network: bool,
    /// The call wants to run outside the box, with the user's full access: it asks, and once
    /// approved runs in no box.
    pub outside_sandbox: bool,
    /// The call is a plain `git init` ([`crate::tools::git_init`]): it asks, and once approved
    /// Warden runs it outside the box as a hardened git, never through a shell.
    pub hardened_git: bool,
    /// How long the registry lets the call run.
    pub timeout: Timeout,
    /// The tool could not read this input: the call will be refused before anything runs, and an
    /// approval of it is never remembered (there is nothing a grant could be said to cover).
    pub unreadable: bool,
    /// The paths the call reads or writes, as the model named them: Warden resolves them before
    /// any permission rule sees them.
    pub files: Option<FileAccess>,
}

/// The paths one call reads or writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileAccess {
    pub write: bool,
    /// As the model named them (relative to the project, or absolute); `None` when the tool
    /// cannot tell before it runs (a patch it cannot read): no rule covers such a call.
    pub paths: Option<Vec<String>>,
}

impl FileAccess {
    /// A call that reads `path`.
    pub fn read(path: impl Into<String>) -> Needs {
        Needs { files: Some(Self { write: false, paths: Some(vec![path.into()]) }), ..Needs::default() }
    }

    /// A call that writes `paths` (`None`: the tool cannot tell which).
    pub fn write(paths: Option<Vec<String>>) -> Needs {
        Needs { files: Some(Self { write: true, paths }), ..Needs::default() }
    }
}

impl Needs {
    /// The needs of an input the tool cannot read.
    pub fn unreadable() -> Self {
        Self { unreadable: true, ..Self::default() }
    }
}

/// How long a call may run unless the scope names a time for the tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Timeout {
    /// The configured default of the tools (`ToolsConfig::default_tool_timeout`).
    #[default]
    Default,
    /// The tool keeps time itself, up to the configured command maximum
    /// (`ToolsConfig::bash_max_timeout`), and on its deadline kills its processes and reports the
    /// output so far; the registry's deadline is only a backstop, a grace period later.
    KeptByTool,
    /// This long (an MCP server's tool may wait for a form the user fills in).
    Fixed(Duration),
}
