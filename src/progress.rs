//! A progress bar on standard error for long jobs, silent with `--quiet` or when nobody watches.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    pub fn new(total: u64, verb: &str, quiet: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if quiet {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(
            ProgressStyle::with_template(&format!("{verb} {{bar:30}} {{pos}}/{{len}} {{msg}}"))
                .expect("the template is valid"),
        );
        Progress { bar }
    }

    pub fn set(&self, done: u64, message: &str) {
        self.bar.set_position(done);
        self.bar.set_message(message.to_string());
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
