//! stub
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Type;
pub(super) fn emit(
    _fx: &mut FunctionCx<'_, '_>,
    _f: &BuiltinFn,
    _a: &[CValue],
    _t: &[Type],
) -> Option<Result<CValue, String>> {
    None
}
