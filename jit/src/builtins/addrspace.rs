//! stub
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
pub(super) fn emit(
    _fx: &mut FunctionCx<'_, '_>,
    _f: &BuiltinFn,
    _a: &[CValue],
) -> Option<Result<CValue, String>> {
    None
}
