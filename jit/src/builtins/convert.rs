//! stub
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::{BuiltinFn, Rounding};
use crate::sema::types::Type;
pub(super) fn convert(
    _fx: &mut FunctionCx<'_, '_>,
    _f: &BuiltinFn,
    _a: &[CValue],
    _t: &[Type],
    _s: bool,
    _r: Rounding,
) -> Option<Result<CValue, String>> {
    None
}
pub(super) fn reinterpret(
    _fx: &mut FunctionCx<'_, '_>,
    _f: &BuiltinFn,
    _a: &[CValue],
    _t: &[Type],
) -> Option<Result<CValue, String>> {
    None
}
pub(super) fn shuffle(
    _fx: &mut FunctionCx<'_, '_>,
    _f: &BuiltinFn,
    _a: &[CValue],
    _t: &[Type],
) -> Option<Result<CValue, String>> {
    None
}
