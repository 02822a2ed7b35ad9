mod crash;
mod unreadable;
