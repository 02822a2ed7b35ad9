//! The command line, exactly as the contract states it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use warden_protocol::{NetworkMode, TrustLevel};

#[derive(Debug, Parser)]
#[command(name = "warden", version, about = "Warden: an AI agent that asks before it acts")]
pub struct Cli {
    /// More logging on stderr (-v info, -vv debug); WARDEN_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one message through the agent and print its events.
    Exec(ExecArgs),
    /// Run one tool directly through the registry, sandbox and policy.
    Tool(ToolArgs),
    /// Run any command inside the box the agent's commands run in; its exit status is passed
    /// through.
    Sandbox(SandboxArgs),
    /// List, compare and restore the checkpoints Warden took of a project before each change.
    Checkpoint(CheckpointArgs),
    /// The MCP servers whose tools the agent gets: list, add, remove.
    Mcp(McpArgs),
    /// The saved conversations (the window's and `warden exec`'s): list, show, search, delete.
    Sessions(SessionsArgs),
    /// The permission rules: list, add, remove, and check what a call would do.
    Rules(RulesArgs),
    /// A project's own hooks (its `.claude/settings.json`): show, approve, decline.
    Hooks {
        #[command(subcommand)]
        action: HooksAction,
    },
    /// The engine for a face on another machine: its link's frames on stdin and stdout (started by
    /// `warden exec --remote` over ssh, or by any command that gives a pipe). Never listens on the
    /// network.
    Serve(ServeArgs),
    /// Remote machines: copy this engine to one that has none (`install`).
    Remote {
        #[command(subcommand)]
        action: RemoteAction,
    },
}

#[derive(Debug, Subcommand)]
pub enum RemoteAction {
    /// Copy this build's engine over ssh to HOST's ~/.local/share/warden/bin/, after checking that
    /// it runs there (Linux on this architecture, a new enough glibc) and saying what it will do.
    Install {
        /// As ssh takes it (`me@host`, an alias of ~/.ssh/config).
        host: String,
        /// Copy without asking (otherwise the terminal is asked).
        #[arg(long)]
        yes: bool,
    },
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Speak the link on standard input and output (the only way `serve` speaks).
    #[arg(long)]
    pub stdio: bool,
    /// The user's engine itself, on its unix socket (started by `--stdio` when none runs).
    #[arg(long, hide = true, conflicts_with = "stdio")]
    pub daemon: bool,
}

#[derive(Debug, Subcommand)]
pub enum HooksAction {
    /// Every command of the project's hooks, with its event and matcher, and the digest (what
    /// `approve --digest` takes).
    Show {
        #[arg(long)]
        project: Option<PathBuf>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Run the project's hooks (as they are now) from now on.
    Approve {
        #[arg(long)]
        project: Option<PathBuf>,
        /// Approve only the hooks with this digest (from `warden hooks show`).
        #[arg(long, value_name = "SHA256")]
        digest: Option<String>,
    },
    /// Do not run the project's hooks.
    Decline {
        #[arg(long)]
        project: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// The project (default: the current directory).
    #[arg(long, global = true)]
    pub project: Option<PathBuf>,
    /// Print JSON on stdout.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub action: RulesAction,
}

#[derive(Debug, Subcommand)]
pub enum RulesAction {
    /// Every rule that applies in the project: the organisation's, yours and the project's.
    List,
    /// Add a rule (`warden rules add allow bash 'cargo test *'`).
    Add {
        /// allow, ask or deny.
        effect: EffectArg,
        /// bash, read, write, network, or a tool's name (mcp__server__tool, mcp__server__*).
        tool: String,
        /// What of the tool's calls it covers (a command, a path glob, a host); none: all.
        pattern: Option<String>,
        /// Where it is kept: this project, or every project (user).
        #[arg(long, value_enum, default_value = "project")]
        scope: ScopeArg,
    },
    /// Remove a rule, named as it was added.
    Remove {
        effect: EffectArg,
        tool: String,
        pattern: Option<String>,
        #[arg(long, value_enum, default_value = "project")]
        scope: ScopeArg,
    },
    /// Claude Code's and codex's rules (~/.claude/settings.json, the project's .claude/settings.json
    /// and settings.local.json, ~/.codex/rules/*.rules, the project's .codex/rules/*.rules),
    /// converted and shown; nothing is added without --add.
    Import {
        /// Add the ticked rules (an allow wider than one program prefix is offered unticked).
        #[arg(long)]
        add: bool,
        /// With --add: the unticked ones too.
        #[arg(long, requires = "add")]
        include_wide: bool,
    },
    /// What a call would do, and the rule or step that decides it (`warden rules check bash
    /// 'cargo test -p x'`, `warden rules check file_write src/a.rs`). Exit 0: it runs unasked;
    /// 3: it asks; 4: it is refused.
    Check {
        tool: String,
        /// For bash the command, for a file tool the path, or the whole input as JSON.
        input: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum EffectArg {
    Allow,
    Ask,
    Deny,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ScopeArg {
    Project,
    User,
}

#[derive(Debug, Args)]
pub struct SessionsArgs {
    #[command(subcommand)]
    pub action: SessionsAction,
    /// The saved conversations of another machine (HOST, anything ssh takes): read, searched and
    /// deleted there, over the same link as `warden exec --remote`.
    #[arg(long, global = true, value_name = "HOST")]
    pub remote: Option<String>,
    /// With --remote: the command that gives the pipe to `warden serve --stdio` there, instead of ssh.
    #[arg(long, global = true, value_name = "COMMAND", requires = "remote")]
    pub transport: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum SessionsAction {
    /// The saved conversations, most recent first.
    List {
        /// How many to list.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=500))]
        limit: u32,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// One conversation's messages.
    Show {
        id: String,
        /// Print JSON on stdout (the messages exactly as stored).
        #[arg(long)]
        json: bool,
    },
    /// The conversations holding every word of QUERY (titles, messages, tool calls and results).
    Search {
        query: String,
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=200))]
        limit: u32,
        #[arg(long)]
        json: bool,
    },
    /// Delete a conversation for good.
    Delete {
        id: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(subcommand)]
    pub action: McpAction,
}

#[derive(Debug, Subcommand)]
pub enum McpAction {
    /// Every configured server: started, with its state and tools.
    List {
        /// The project the servers are started for (default: the current directory).
        #[arg(long)]
        project: Option<PathBuf>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Servers for this listing only, besides the settings' (the `mcpServers` JSON format).
        #[arg(long, value_name = "FILE")]
        mcp_config: Option<PathBuf>,
    },
    /// Add a server: `warden mcp add NAME -- COMMAND [ARGS…]` or `warden mcp add NAME --url URL`.
    Add {
        name: String,
        /// The endpoint of a streamable HTTP server.
        #[arg(long, conflicts_with = "command")]
        url: Option<String>,
        /// A header sent to an HTTP server (repeatable): `--header 'Authorization=Bearer …'`.
        #[arg(long = "header", value_name = "NAME=VALUE", requires = "url")]
        headers: Vec<String>,
        /// A variable for a stdio server's environment (repeatable).
        #[arg(long = "env", value_name = "NAME=VALUE")]
        env: Vec<String>,
        /// The program and its arguments, after `--`.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Remove a server (it is stopped).
    Remove { name: String },
    /// Sign in to a server reached by URL (OAuth, in your browser); the tokens go to the keychain.
    Login { name: String },
    /// Forget the sign-in to a server (its tokens leave the keychain).
    Logout { name: String },
    /// Keep a secret in the keychain (its value read from stdin) for entries that say
    /// `keychain:NAME` in `env` or `headers`.
    Secret { name: String },
    /// Every field of every server the project's own `.mcp.json` names: what Warden would use,
    /// what it ignores and why, and the file's digest (what `approve --digest` takes).
    Show {
        #[arg(long)]
        project: Option<PathBuf>,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Use the project's own `.mcp.json` (for its content as it is: a changed file asks again).
    /// Without `--digest` it shows every field and asks y/N on the terminal.
    Approve {
        #[arg(long)]
        project: Option<PathBuf>,
        /// Approve only the content with this digest (from `warden mcp show`); a file changed
        /// since is refused.
        #[arg(long, value_name = "SHA256")]
        digest: Option<String>,
    },
    /// Do not use the project's own `.mcp.json` (as it is now).
    Decline {
        #[arg(long)]
        project: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// The project (default: the current directory).
    #[arg(long, global = true)]
    pub project: Option<PathBuf>,
    /// Print JSON on stdout.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub action: CheckpointAction,
}

#[derive(Debug, Subcommand)]
pub enum CheckpointAction {
    /// The project's checkpoints, oldest first.
    List {
        /// Only those of one conversation.
        #[arg(long)]
        conversation: Option<String>,
    },
    /// What changed between a checkpoint and another (or the project as it is now).
    Diff {
        id: String,
        id2: Option<String>,
        /// Only this file.
        #[arg(long)]
        path: Option<String>,
    },
    /// Put the project (or some paths) back as a checkpoint recorded it.
    Restore {
        id: String,
        /// Restore only this file or folder (repeatable).
        #[arg(long = "path", value_name = "P")]
        paths: Vec<String>,
        /// Overwrite files changed outside Warden since its last checkpoint.
        #[arg(long)]
        force: bool,
    },
    /// Take a checkpoint now.
    Create,
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// The project folder: writable inside the box (default: the current directory).
    #[arg(long)]
    pub project: Option<PathBuf>,
    /// Allow the network, through Warden's proxy: the public internet, and this machine or its
    /// networks only where --allow-host names them (off by default).
    #[arg(long)]
    pub network: bool,
    /// A host the proxy connects to whatever it resolves to, loopback and private networks included:
    /// `name`, `*.domain`, `host:port`, `[v6]:port` (repeatable; needs --network).
    #[arg(long = "allow-host", value_name = "HOST[:PORT]", requires = "network")]
    pub allow_host: Vec<String>,
    /// Give a name its address instead of looking it up, as curl's --resolve does: `name:address`
    /// (repeatable; needs --network).
    #[arg(long = "resolve", value_name = "NAME:ADDRESS", requires = "network")]
    pub resolve: Vec<String>,
    /// Another writable folder (repeatable).
    #[arg(long = "write", value_name = "DIR")]
    pub write: Vec<PathBuf>,
    /// The command and its arguments.
    #[arg(required = true, last = true, value_name = "COMMAND")]
    pub command: Vec<std::ffi::OsString>,
}

impl From<SandboxArgs> for warden_cli::sandbox_cmd::BoxRequest {
    fn from(args: SandboxArgs) -> Self {
        Self {
            project: args.project,
            network: args.network,
            allow_host: args.allow_host,
            resolve: args.resolve,
            write: args.write,
            command: args.command,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProviderArg {
    Anthropic,
    /// Any OpenAI-compatible server.
    Openai,
    Ollama,
}

impl From<ProviderArg> for warden_protocol::ProviderId {
    fn from(value: ProviderArg) -> Self {
        match value {
            ProviderArg::Anthropic => Self::Anthropic,
            ProviderArg::Openai => Self::Openai,
            ProviderArg::Ollama => Self::Ollama,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TrustArg {
    Supervised,
    Guided,
    Autonomous,
}

impl From<TrustArg> for TrustLevel {
    fn from(value: TrustArg) -> Self {
        match value {
            TrustArg::Supervised => TrustLevel::Supervised,
            TrustArg::Guided => TrustLevel::Guided,
            TrustArg::Autonomous => TrustLevel::Autonomous,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NetworkArg {
    Off,
    Rules,
}

impl From<NetworkArg> for NetworkMode {
    fn from(value: NetworkArg) -> Self {
        match value {
            NetworkArg::Off => NetworkMode::Off,
            NetworkArg::Rules => NetworkMode::Rules,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ApproveArg {
    /// Answers from the terminal (with --json: approval lines on stdin).
    Ask,
    /// Answer every confirmation yes.
    All,
    /// Answer every confirmation no.
    None,
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// The message to send (never read from stdin, which carries approvals).
    pub prompt: String,
    /// Wire protocol (openai = any OpenAI-compatible server).
    #[arg(long, value_enum, default_value = "anthropic")]
    pub provider: ProviderArg,
    #[arg(long)]
    pub model: Option<String>,
    /// Defaults: https://api.anthropic.com, https://api.openai.com/v1, http://localhost:11434.
    #[arg(long)]
    pub base_url: Option<String>,
    #[command(flatten)]
    pub common: CommonArgs,
    /// Loop iterations.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_turns: u32,
    /// web_search endpoint.
    #[arg(long)]
    pub searxng_url: Option<String>,
    /// Seconds a confirmation waits before it counts as rejected (default: settings, else 30);
    /// 0 waits until it is answered.
    #[arg(long)]
    pub approval_timeout: Option<u32>,
    /// Offer tools through the text protocol (for models without native tool calling).
    #[arg(long)]
    pub text_tools: bool,
    /// Continue the saved conversation with this id (`warden sessions list` shows them).
    #[arg(long, value_name = "ID", conflicts_with = "continue_last")]
    pub resume: Option<String>,
    /// Continue the last conversation held in this project.
    #[arg(long = "continue")]
    pub continue_last: bool,
    /// Attach an image to the message (PNG, JPEG, GIF or WebP; repeatable). Models that do not
    /// take images are sent a note instead.
    #[arg(long = "image", value_name = "FILE")]
    pub images: Vec<PathBuf>,
    /// Do not save this conversation (or, with --resume / --continue, what this run adds to it).
    #[arg(long)]
    pub ephemeral: bool,
    /// Plan mode: the model only reads (commands run in a read-only box without the network) and
    /// ends by proposing a plan, printed as a `chat:plan` event.
    #[arg(long)]
    pub plan: bool,
    /// Work on a project of another machine, `HOST:/PATH`: the engine runs there (`warden serve
    /// --stdio` over ssh, with your own ssh configuration, agent and keys); your settings and the
    /// provider's key are sent for this session only.
    #[arg(long, value_name = "HOST:/PATH")]
    pub remote: Option<String>,
    /// With --remote: the command that gives the pipe to `warden serve --stdio` there, instead of
    /// ssh (`docker exec -i BOX warden serve --stdio`, `kubectl exec -i POD -- warden serve --stdio`).
    #[arg(long, value_name = "COMMAND", requires = "remote")]
    pub transport: Option<String>,
    /// With --remote: send no provider key; the remote engine uses the keys of its own environment
    /// (`ANTHROPIC_API_KEY`, … where `warden serve` starts it). Without it, only the keys sent from
    /// here are used there.
    #[arg(long, requires = "remote")]
    pub remote_env_keys: bool,
}

#[derive(Debug, Args)]
pub struct CommonArgs {
    /// Project root = sandbox root (default: current directory).
    #[arg(long)]
    pub project: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "guided")]
    pub trust: TrustArg,
    /// Tools in scope: `all` or a comma-separated list (default: the read-only set).
    #[arg(long)]
    pub allow: Option<String>,
    /// ask: answers on the terminal (with --json: approval lines on stdin); all / none: answer
    /// every confirmation yes / no.
    #[arg(long, value_enum, default_value = "ask")]
    pub approve: ApproveArg,
    /// Events as JSON lines on stdout.
    #[arg(long)]
    pub json: bool,
    /// The project's network for this run, instead of its setting: `rules` (through Warden's
    /// proxy, every host no rule names asked about) or `off` (none; a command may ask for it).
    #[arg(long, value_enum, value_name = "MODE")]
    pub network: Option<NetworkArg>,
    /// MCP servers for this run, besides the settings' (the `mcpServers` JSON format of Claude
    /// Desktop, Cursor and codex).
    #[arg(long, value_name = "FILE")]
    pub mcp_config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The tool's name (file_read, bash, …).
    pub name: String,
    /// The tool's input as a JSON object.
    #[arg(default_value = "{}")]
    pub input: String,
    #[command(flatten)]
    pub common: CommonArgs,
    #[arg(long)]
    pub searxng_url: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The front runs a sandbox command line itself only where the engine's parser reads the same
    /// request from it: the front must not widen, narrow or invent a box.
    #[test]
    fn the_front_runs_only_what_the_engine_would_parse_the_same() {
        use warden_cli::front::{route, Route};
        let lines: &[&[&str]] = &[
            &["sandbox", "--", "true"],
            &["sandbox", "--project", "/p", "--", "sh", "-c", "exit 3"],
            &["sandbox", "--project=/p", "--network", "--write", "/a", "--write=/b", "--", "ls", "--", "-l"],
            &["sandbox", "--write", "/a=b", "--", "x"],
            &["sandbox", "--network", "--project", "/p", "--", "--", "x"],
            &["sandbox", "--project", "/p", "--project", "/q", "--", "x"],
            &["sandbox", "--network", "--network", "--", "x"],
            &["sandbox", "--project=", "--", "x"],
            &["sandbox", "--help"],
            &["sandbox", "x"],
        ];
        let mut taken = 0;
        for line in lines {
            let args: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            let Route::Sandbox(front) = route(&args) else { continue };
            taken += 1;
            let parsed = Cli::try_parse_from(std::iter::once("warden").chain(line.iter().copied()));
            let Ok(Cli { command: Command::Sandbox(engine), .. }) = parsed else {
                panic!("the front runs {line:?}, the engine refuses it: {parsed:?}");
            };
            assert_eq!(front, engine.into(), "{line:?}");
        }
        assert_eq!(taken, 5, "the plain forms above are the front's");
    }

    #[test]
    fn the_contract_parses() {
        let cli = Cli::try_parse_from([
            "warden",
            "exec",
            "--provider",
            "openai",
            "--model",
            "m",
            "--base-url",
            "http://127.0.0.1:1/v1",
            "--project",
            "/tmp",
            "--trust",
            "autonomous",
            "--allow",
            "file_read,bash",
            "--approve",
            "none",
            "--json",
            "--max-turns",
            "3",
            "--searxng-url",
            "http://127.0.0.1:2",
            "hello",
        ])
        .unwrap();
        let Command::Exec(args) = cli.command else { panic!("exec") };
        assert_eq!(args.prompt, "hello");
        assert_eq!(args.provider, ProviderArg::Openai);
        assert_eq!(args.common.approve, ApproveArg::None);
        assert_eq!(args.max_turns, 3);
    }

    #[test]
    fn a_missing_prompt_is_a_usage_error() {
        let error = Cli::try_parse_from(["warden", "exec", "--json"]).unwrap_err();
        assert!(error.use_stderr());
    }
}
