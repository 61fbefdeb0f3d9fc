//! Inlining of small functions into their callers, with Cranelift's inliner.
//!
//! Functions are compiled callees first; the CLIF of each (after its own
//! calls were inlined, before optimisation) is kept, and a direct call of a
//! function whose body is at most [`INLINE_BUDGET`] instructions is replaced
//! by that body. Kernels benefit most: helper functions (complex arithmetic,
//! index computations) vanish into the work-item loop.

use cranelift_codegen::inline::{Inline, InlineCommand};
use cranelift_codegen::ir::{self, ExternalName};
use std::borrow::Cow;
use std::collections::HashMap;

/// Largest callee (in Cranelift instructions) inlined at a call site.
pub const INLINE_BUDGET: usize = 400;

/// The bodies available for inlining, by module function id.
#[derive(Default)]
pub(crate) struct Bodies {
    pub map: HashMap<u32, ir::Function>,
}

impl Inline for &Bodies {
    fn inline(
        &mut self,
        caller: &ir::Function,
        _call: ir::Inst,
        opcode: ir::Opcode,
        callee: ir::FuncRef,
        _args: &[ir::Value],
    ) -> InlineCommand<'_> {
        if opcode != ir::Opcode::Call {
            return InlineCommand::KeepCall;
        }
        let ExternalName::User(r) = caller.dfg.ext_funcs[callee].name else {
            return InlineCommand::KeepCall;
        };
        let index = caller.params.user_named_funcs()[r].index;
        match self.map.get(&index) {
            Some(f) if f.dfg.num_insts() <= INLINE_BUDGET => InlineCommand::Inline {
                callee: Cow::Borrowed(f),
                visit_callee: false,
            },
            _ => InlineCommand::KeepCall,
        }
    }
}
