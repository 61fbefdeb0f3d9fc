//! Why a kernel runs the way it does (`CRANECL_EXPLAIN`): the work-group
//! strategy and the step the compiler chose for each kernel, and the reason
//! each faster choice was refused, in words a kernel's author can act on.

use crate::source::{SourceMap, Span};
use std::fmt;

/// How the work-items of a group are run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// No barrier: one loop over the group's work-items.
    Loop,
    /// Barriers: the body is cut at them into pieces, each a loop over
    /// the work-items (`regions.rs`).
    Regions,
    /// Barriers the regions cannot cut: each work-item runs as a coroutine
    /// that yields at every barrier.
    Coroutines,
}

/// How many work-items one step of those loops runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One work-item per step.
    One,
    /// Eight or four per step (`lanes/`); loops the lanes leave at
    /// different times once per lane.
    Lanes,
    /// Eight or four per step; such loops run masked.
    Masked,
}

/// One kernel's choice and the refusals that led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub kernel: String,
    pub strategy: Strategy,
    pub step: Step,
    /// The work-items of a step: 1 with `Step::One`, else 8 or 4
    /// (`lanes::step_regs`).
    pub items_per_step: usize,
    /// Each faster way that was refused, and why (most important first).
    pub refused: Vec<String>,
    /// Where the chosen step does something slower than its best, one line
    /// each with its place (`<source>:LINE:COL`): statements and
    /// expressions run once per lane, loops run masked.
    pub notes: Vec<String>,
    /// Launched in work-groups of one work-item: the groups per step
    /// (`one_item_groups.rs`), or why one.
    pub groups_of_one: Result<usize, String>,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let strategy = match self.strategy {
            Strategy::Loop => "loop over the work-items (no barrier)",
            Strategy::Regions => "regions (the body cut at its barriers)",
            Strategy::Coroutines => {
                "coroutines (one stack per work-item, switched at barriers and in loops that wait)"
            }
        };
        let n = self.items_per_step;
        let step = match self.step {
            Step::One => "one work-item per step".to_string(),
            Step::Lanes => format!("{n} work-items per step (divergent loops once per lane)"),
            Step::Masked => format!("{n} work-items per step (divergent loops masked)"),
        };
        write!(f, "kernel '{}': {strategy}; {step}", self.kernel)?;
        for r in &self.refused {
            write!(f, "\n  not faster because {r}")?;
        }
        for n in &self.notes {
            write!(f, "\n  {n}")?;
        }
        match &self.groups_of_one {
            Ok(n) => write!(
                f,
                "\n  in work-groups of one work-item: {n} groups per step"
            )?,
            Err(why) => write!(
                f,
                "\n  in work-groups of one work-item: one group per step because {why}"
            )?,
        }
        Ok(())
    }
}

/// The most notes kept per kernel (the first ones in source order).
pub(crate) const MAX_NOTES: usize = 12;

/// `what` at `span`: `<source>:LINE:COL: what: `text``, or `what` alone
/// when the sources are not kept.
pub(crate) fn note_at(sources: Option<&SourceMap>, span: Span, what: &str) -> String {
    let Some(file) = sources.and_then(|sm| sm.get(span.file)) else {
        return what.to_string();
    };
    let (_, col) = file.line_col(span.lo);
    let (name, presumed) = file.presumed(span.lo);
    let text: String = sources
        .map(|sm| sm.snippet(span))
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let text = if text.chars().count() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    };
    format!("{name}:{presumed}:{col}: {what}: `{text}`")
}
