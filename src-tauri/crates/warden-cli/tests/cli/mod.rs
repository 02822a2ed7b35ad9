mod exec;
mod process;
mod tool;
