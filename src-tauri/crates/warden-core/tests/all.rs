mod providers;
mod support;
