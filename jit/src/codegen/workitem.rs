//! The work-item functions (spec 6.15.1) and synchronisation (6.15.8): they
//! read the `GroupState`/`ItemState` records of `runtime/`, so they belong
//! to codegen's calling convention rather than to the built-in library.
//!
//! Every per-dimension array of `GroupState` has a fourth entry holding the
//! answer for an out-of-range dimension, so `get_global_id(dim)` is a load at
//! index `min(dim, 3)`, with no branch.

use super::fx::FunctionCx;
use super::value::{flags, group_flags, CValue};
use crate::runtime::offsets as o;
use crate::sema::builtins::BuiltinFn;
use cranelift_codegen::ir::{types, InstBuilder, InstructionData, Opcode, Value};

impl FunctionCx<'_, '_> {
    /// Emit a work-item function or a barrier/fence; `None` if `f` is neither.
    pub(crate) fn emit_workitem(
        &mut self,
        f: &BuiltinFn,
        args: &[CValue],
    ) -> Result<Option<CValue>, String> {
        // A constant dimension (the usual case) is a fixed offset, or a
        // register inside a group entry.
        let cdim = match args.first() {
            Some(a) => a
                .scalar()
                .ok()
                .and_then(|v| self.const_of(v))
                .map(|d| d.clamp(0, 3)),
            None => None,
        };
        let dim = |fx: &mut Self| -> Result<Value, String> {
            let d = args.first().ok_or("missing dimension argument")?.scalar()?;
            let d = fx.b.ins().uextend(types::I64, d);
            let three = fx.b.ins().iconst(types::I64, 3);
            Ok(fx.b.ins().umin(d, three))
        };
        let array = |fx: &mut Self, off: i32| -> Result<Value, String> {
            Ok(match cdim {
                Some(d) => fx.group_field(off + 8 * d as i32),
                None => {
                    let d = dim(fx)?;
                    fx.group_array(off, d)
                }
            })
        };
        let v = match f.name.as_str() {
            "get_work_dim" => {
                let w = self.group_field(o::GROUP_WORK_DIM);
                self.b.ins().ireduce(types::I32, w)
            }
            "get_global_size" => array(self, o::GROUP_GLOBAL_SIZE)?,
            "get_global_offset" => array(self, o::GROUP_GLOBAL_OFFSET)?,
            "get_local_size" => array(self, o::GROUP_LOCAL_SIZE)?,
            "get_enqueued_local_size" => array(self, o::GROUP_ENQUEUED_LOCAL_SIZE)?,
            "get_num_groups" => array(self, o::GROUP_NUM_GROUPS)?,
            "get_group_id" => array(self, o::GROUP_GROUP_ID)?,
            "get_local_id" => match (cdim, self.inline_ids) {
                (Some(3), _) => self.b.ins().iconst(types::I64, 0),
                (Some(d), Some((ids, _))) => ids[d as usize],
                (Some(d), None) => self.local_id_const(d),
                (None, _) => {
                    let d = dim(self)?;
                    self.item_local_id(d)
                }
            },
            "get_global_id" => match (cdim, self.inline_ids) {
                (Some(3), _) => self.b.ins().iconst(types::I64, 0),
                (Some(d), Some((ids, bases))) => {
                    self.b.ins().iadd(bases[d as usize], ids[d as usize])
                }
                _ => {
                    let d = dim(self)?;
                    self.global_id(d)
                }
            },
            "get_local_linear_id" => {
                let ids: Vec<Value> = match self.inline_ids {
                    Some((ids, _)) => ids.to_vec(),
                    None => (0..3).map(|d| self.local_id_const(d)).collect(),
                };
                let sizes: Vec<Value> = (0..3)
                    .map(|d| self.group_array_const(o::GROUP_LOCAL_SIZE, d))
                    .collect();
                self.linearize(&ids, &sizes)
            }
            "get_global_linear_id" => {
                let mut ids = Vec::new();
                for d in 0..3 {
                    let g = match self.inline_ids {
                        Some((ids, bases)) => self.b.ins().iadd(bases[d as usize], ids[d as usize]),
                        None => {
                            let dv = self.b.ins().iconst(types::I64, d);
                            self.global_id(dv)
                        }
                    };
                    let off = self.group_array_const(o::GROUP_GLOBAL_OFFSET, d);
                    ids.push(self.b.ins().isub(g, off));
                }
                let sizes: Vec<Value> = (0..3)
                    .map(|d| self.group_array_const(o::GROUP_GLOBAL_SIZE, d))
                    .collect();
                self.linearize(&ids, &sizes)
            }
            "get_sub_group_size"
            | "get_max_sub_group_size"
            | "get_num_sub_groups"
            | "get_enqueued_num_sub_groups"
            | "get_sub_group_id"
            | "get_sub_group_local_id" => self.sub_group_query(&f.name),
            "barrier" | "work_group_barrier" => {
                self.emit_barrier();
                return Ok(Some(CValue::Void));
            }
            "mem_fence" | "read_mem_fence" | "write_mem_fence" | "atomic_work_item_fence" => {
                self.b.ins().fence();
                return Ok(Some(CValue::Void));
            }
            _ => return Ok(None),
        };
        Ok(Some(CValue::Scalar(v)))
    }

    /// The value of `v` if an `iconst` defines it, or widens one.
    pub(crate) fn const_of(&self, v: Value) -> Option<i64> {
        let inst = self.b.func.dfg.value_def(v).inst()?;
        match self.b.func.dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            // A constant widened (`2 * i` with a `size_t` `i`).
            InstructionData::Unary {
                opcode: op @ (Opcode::Sextend | Opcode::Uextend),
                arg,
            } => {
                let c = self.const_of(arg)?;
                let w = self.b.func.dfg.value_type(arg).bits();
                if w >= 64 {
                    return Some(c);
                }
                let low = c & ((1i64 << w) - 1);
                Some(if op == Opcode::Sextend {
                    (low << (64 - w)) >> (64 - w)
                } else {
                    low
                })
            }
            _ => None,
        }
    }

    /// `GroupState.<array>[idx]` for an i64 index in 0..=3.
    fn group_array(&mut self, offset: i32, idx: Value) -> Value {
        let g = self.group_ptr();
        let scaled = self.b.ins().ishl_imm_s(idx, 3);
        let p = self.b.ins().iadd(g, scaled);
        // Every caller clamps `idx` to 0..=3 (`umin`), inside the arrays.
        self.b.ins().load(types::I64, group_flags(), p, offset)
    }

    fn group_array_const(&mut self, offset: i32, d: i64) -> Value {
        self.group_field(offset + 8 * d as i32)
    }

    fn item_local_id(&mut self, idx: Value) -> Value {
        let scaled = self.b.ins().ishl_imm_s(idx, 3);
        let p = self.b.ins().iadd(self.item, scaled);
        self.b.ins().load(types::I64, flags(), p, o::ITEM_LOCAL_ID)
    }

    fn local_id_const(&mut self, d: i64) -> Value {
        self.b.ins().load(
            types::I64,
            flags(),
            self.item,
            o::ITEM_LOCAL_ID + 8 * d as i32,
        )
    }

    /// `group_id * enqueued_local_size + local_id + global_offset`.
    fn global_id(&mut self, d: Value) -> Value {
        let gid = self.group_array(o::GROUP_GROUP_ID, d);
        let els = self.group_array(o::GROUP_ENQUEUED_LOCAL_SIZE, d);
        let off = self.group_array(o::GROUP_GLOBAL_OFFSET, d);
        let lid = self.item_local_id(d);
        let base = self.b.ins().imul(gid, els);
        let x = self.b.ins().iadd(base, lid);
        self.b.ins().iadd(x, off)
    }

    /// The sub-group work-item functions (OpenCL C 3.0, 6.15.19): a
    /// sub-group is `SUB_GROUP_SIZE` consecutive local linear ids, the last
    /// one of a group smaller when the group's size is not a multiple.
    /// Every answer is a `uint`.
    fn sub_group_query(&mut self, name: &str) -> Value {
        let width = crate::launch::SUB_GROUP_SIZE as i64;
        let count = |fx: &mut Self, off: i32| {
            let s: Vec<Value> = (0..3).map(|d| fx.group_array_const(off, d)).collect();
            let s01 = fx.b.ins().imul(s[0], s[1]);
            fx.b.ins().imul(s01, s[2])
        };
        let linear = |fx: &mut Self| {
            let ids: Vec<Value> = match fx.inline_ids {
                Some((ids, _)) => ids.to_vec(),
                None => (0..3).map(|d| fx.local_id_const(d)).collect(),
            };
            let sizes: Vec<Value> = (0..3)
                .map(|d| fx.group_array_const(o::GROUP_LOCAL_SIZE, d))
                .collect();
            fx.linearize(&ids, &sizes)
        };
        let v = match name {
            "get_sub_group_local_id" => {
                let l = linear(self);
                self.b.ins().urem_imm_u(l, width)
            }
            "get_sub_group_id" => {
                let l = linear(self);
                self.b.ins().udiv_imm_u(l, width)
            }
            "get_sub_group_size" => {
                // min(width, items - first id of this sub-group)
                let l = linear(self);
                let first = self.b.ins().urem_imm_u(l, width);
                let first = self.b.ins().isub(l, first);
                let n = count(self, o::GROUP_LOCAL_SIZE);
                let left = self.b.ins().isub(n, first);
                let w = self.b.ins().iconst(types::I64, width);
                self.b.ins().umin(left, w)
            }
            "get_max_sub_group_size" => {
                let n = count(self, o::GROUP_ENQUEUED_LOCAL_SIZE);
                let w = self.b.ins().iconst(types::I64, width);
                self.b.ins().umin(n, w)
            }
            // "get_num_sub_groups" | "get_enqueued_num_sub_groups":
            // ceil(items / width).
            _ => {
                let off = if name == "get_num_sub_groups" {
                    o::GROUP_LOCAL_SIZE
                } else {
                    o::GROUP_ENQUEUED_LOCAL_SIZE
                };
                let n = count(self, off);
                let n = self.b.ins().iadd_imm_u(n, width - 1);
                self.b.ins().udiv_imm_u(n, width)
            }
        };
        self.b.ins().ireduce(types::I32, v)
    }

    /// `(i2 * s1 + i1) * s0 + i0`.
    fn linearize(&mut self, ids: &[Value], sizes: &[Value]) -> Value {
        let a = self.b.ins().imul(ids[2], sizes[1]);
        let a = self.b.ins().iadd(a, ids[1]);
        let a = self.b.ins().imul(a, sizes[0]);
        self.b.ins().iadd(a, ids[0])
    }
}

impl FunctionCx<'_, '_> {
    /// Wait until every work-item of the group arrives here (a barrier).
    /// A built-in that synchronises the group (`wait_group_events`, the
    /// work-group collectives) calls this; `walk::is_barrier` must name it
    /// so that its kernels get a barrier strategy.
    pub fn emit_barrier(&mut self) {
        self.mark_barrier_site();
        let f = crate::runtime::cranecl_barrier as *const u8;
        let item = self.item;
        self.call_host(f, &[types::I64], &[], &[item]);
    }

    /// A pass through a loop that may wait for another work-item
    /// (`lower/progress.rs`): now and then the other work-items of the
    /// group run before this one goes on (`runtime::cranecl_progress`).
    pub fn emit_progress_point(&mut self) {
        let f = crate::runtime::cranecl_progress as *const u8;
        let item = self.item;
        self.call_host(f, &[types::I64], &[], &[item]);
    }

    /// Wait until every other work-item of this sub-group arrives here
    /// (`sub_group_barrier`, and the two waits of a sub-group collective).
    /// Kernels that reach one run as coroutines (`walk::uses_sub_group_sync`).
    pub fn emit_sub_group_barrier(&mut self) {
        let f = crate::runtime::cranecl_sub_group_barrier as *const u8;
        let item = self.item;
        self.call_host(f, &[types::I64], &[], &[item]);
    }

    /// The group-shared scratch of kernels that reach a work-group collective
    /// (`GROUP_SCRATCH_SIZE` bytes at the start of the local arena): one
    /// 8-byte slot per work-item, indexed by `get_local_linear_id`. Write your
    /// slot, `emit_barrier`, read, `emit_barrier` again before reuse.
    pub fn group_scratch(&mut self) -> Value {
        self.group_field(o::GROUP_LOCAL_MEM)
    }

    /// `[lo, hi)` of the current work-group's local arena (for `to_local`,
    /// `get_fence` and friends).
    pub fn local_range(&mut self) -> (Value, Value) {
        let lo = self.group_field(o::GROUP_LOCAL_MEM);
        let size = self.group_field(o::GROUP_LOCAL_MEM_SIZE);
        let hi = self.b.ins().iadd(lo, size);
        (lo, hi)
    }

    /// The two `[lo, hi)` ranges that hold the current work-item's private
    /// memory: its stack, and its frame arena under the region strategy (an
    /// empty range otherwise). An address that is neither local nor private
    /// is global (for `to_global`, `to_private`).
    pub fn private_ranges(&mut self) -> [(Value, Value); 2] {
        let item = self.item;
        let mut load = |off: i32| self.b.ins().load(types::I64, flags(), item, off);
        [
            (load(o::ITEM_PRIVATE_LO), load(o::ITEM_PRIVATE_HI)),
            (load(o::ITEM_ARENA_LO), load(o::ITEM_ARENA_HI)),
        ]
    }
}
