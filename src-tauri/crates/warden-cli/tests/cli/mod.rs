mod checkpoint;
mod contained;
mod environ;
mod exec;
mod process;
mod reaper;
mod terminal;
mod tool;
