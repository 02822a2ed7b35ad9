//! Tools and sandbox: real temp directories, real child processes, a real loopback HTTP server.
//! Test setup may panic on a broken machine (no temp dir, no loopback): that is a failed test.

mod apply_patch;
mod atomic_writes;
mod background;
mod bash;
mod bash_memory;
mod blocklist;
mod blocklist_bounds;
mod common;
mod escapes;
mod file_edit;
mod file_read;
mod file_write;
mod git_and_secrets;
mod listing;
mod path_property;
mod registry;
mod sandbox;
mod search_in_files;
mod special_files;
mod system_info;
mod web_search;
