//! The checkpoint store on its own: what its watcher says agrees with looking at every file.

mod patch;
mod retention;
mod watcher;
