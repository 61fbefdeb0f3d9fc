//! stub
use crate::codegen::{CValue, FunctionCx};
use crate::sema::types::Type;
pub(super) fn emit(
    _fx: &mut FunctionCx<'_, '_>,
    _a: &[CValue],
    _t: &[Type],
) -> Option<Result<CValue, String>> {
    None
}
pub fn symbols() -> Vec<(&'static str, *const u8)> {
    Vec::new()
}
