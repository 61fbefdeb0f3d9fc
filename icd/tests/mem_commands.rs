//! Buffer commands through the `extern "C"` entry points: read/write/copy
//! (linear and rect, checked byte by byte against a host model), host-access
//! rules, fills of every pattern size, map/unmap, copy overlap within a buffer
//! and across sub-buffers, migration, and the lifetime of a buffer released
//! while a command still uses it.

mod common;
mod mem_util;

use common::*;
use mem_util::*;

#[test]
fn read_write_copy_round_trip_and_errors() {
    let env = Env::new();
    let a = buffer(env.ctx, 4096);
    let b = buffer(env.ctx, 4096);
    let data = bytes(4096, 5);
    assert_eq!(write(env.q, a, 0, &data), CL_SUCCESS);
    assert_eq!(copy(env.q, a, b, 100, 200, 1000), CL_SUCCESS);
    let got = read_all(env.q, b, 4096);
    assert_eq!(&got[200..1200], &data[100..1100]);
    assert!(got[..200].iter().chain(&got[1200..]).all(|&x| x == 0));

    let mut out = [0u8; 8];
    // Out of bounds, overflow, NULL pointer.
    assert_eq!(read(env.q, a, 4090, &mut out), CL_INVALID_VALUE);
    assert_eq!(read(env.q, a, usize::MAX - 2, &mut out), CL_INVALID_VALUE);
    assert_eq!(copy(env.q, a, b, 0, 4000, 100), CL_INVALID_VALUE);
    assert_eq!(copy(env.q, a, b, usize::MAX, 0, 2), CL_INVALID_VALUE);
    // SAFETY: NULL ptr is the error under test.
    let rc = unsafe {
        clEnqueueReadBuffer(
            env.q,
            a,
            CL_TRUE,
            0,
            4,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_INVALID_VALUE);
    // Bad handles: the queue first, then the buffer.
    assert_eq!(
        read(ptr::null_mut(), ptr::null_mut(), 0, &mut out),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_eq!(
        read(env.q, ptr::null_mut(), 0, &mut out),
        CL_INVALID_MEM_OBJECT
    );
    assert_eq!(
        copy(env.q, a, env.q as cl_mem, 0, 0, 4),
        CL_INVALID_MEM_OBJECT
    );
    // A buffer of another context.
    let other = context();
    let foreign = buffer(other, 64);
    assert_eq!(read(env.q, foreign, 0, &mut out), CL_INVALID_CONTEXT);
    assert_eq!(copy(env.q, a, foreign, 0, 0, 4), CL_INVALID_CONTEXT);
    release(foreign);
    release_context(other);
    // Wait list errors come after the values.
    // SAFETY: inconsistent wait list is the error under test.
    let rc = unsafe {
        clEnqueueReadBuffer(
            env.q,
            a,
            CL_TRUE,
            0,
            8,
            out.as_mut_ptr() as _,
            1,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_INVALID_EVENT_WAIT_LIST);
    release(a);
    release(b);
}

#[test]
fn host_access_flags_are_enforced() {
    let env = Env::new();
    let mut out = [0u8; 4];
    for (flags, can_read, can_write) in [
        (CL_MEM_HOST_WRITE_ONLY, false, true),
        (CL_MEM_HOST_READ_ONLY, true, false),
        (CL_MEM_HOST_NO_ACCESS, false, false),
        (0, true, true),
    ] {
        let (m, rc) = create(env.ctx, flags, 64, ptr::null_mut());
        assert_eq!(rc, CL_SUCCESS);
        let code = |ok: bool| if ok { CL_SUCCESS } else { CL_INVALID_OPERATION };
        assert_eq!(
            read(env.q, m, 0, &mut out),
            code(can_read),
            "read {flags:#x}"
        );
        assert_eq!(
            write(env.q, m, 0, &out),
            code(can_write),
            "write {flags:#x}"
        );
        for (map_flags, ok) in [
            (CL_MAP_READ, can_read),
            (CL_MAP_WRITE, can_write),
            (CL_MAP_WRITE_INVALIDATE_REGION, can_write),
        ] {
            let mut rc = 0;
            // SAFETY: valid arguments.
            let p = unsafe {
                clEnqueueMapBuffer(
                    env.q,
                    m,
                    CL_TRUE,
                    map_flags,
                    0,
                    8,
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                    &mut rc,
                )
            };
            assert_eq!(rc, code(ok), "map {map_flags:#x} of {flags:#x}");
            if ok {
                // SAFETY: unmap of the pointer just mapped.
                let rc = unsafe {
                    clEnqueueUnmapMemObject(env.q, m, p, 0, ptr::null(), ptr::null_mut())
                };
                assert_eq!(rc, CL_SUCCESS);
            }
        }
        // Copies and fills ignore the host access flags.
        let other = buffer(env.ctx, 64);
        assert_eq!(copy(env.q, m, other, 0, 0, 64), CL_SUCCESS);
        release(other);
        release(m);
    }
}

/// The host model of a rect transfer: byte (x, y, z) of the region goes from
/// `src[so + z*ssp + y*srp + x]` to `dst[do + z*dsp + y*drp + x]`.
#[allow(clippy::too_many_arguments)]
fn model_rect(
    dst: &mut [u8],
    d_origin: [usize; 3],
    d_pitch: [usize; 2],
    src: &[u8],
    s_origin: [usize; 3],
    s_pitch: [usize; 2],
    region: [usize; 3],
) {
    let resolve = |p: [usize; 2]| {
        let row = if p[0] == 0 { region[0] } else { p[0] };
        let slice = if p[1] == 0 { region[1] * row } else { p[1] };
        (row, slice)
    };
    let (drp, dsp) = resolve(d_pitch);
    let (srp, ssp) = resolve(s_pitch);
    for z in 0..region[2] {
        for y in 0..region[1] {
            for x in 0..region[0] {
                let s = (s_origin[2] + z) * ssp + (s_origin[1] + y) * srp + s_origin[0] + x;
                let d = (d_origin[2] + z) * dsp + (d_origin[1] + y) * drp + d_origin[0] + x;
                dst[d] = src[s];
            }
        }
    }
}

/// (region, buffer origin, buffer pitches, host origin, host pitches).
type RectCase = ([usize; 3], [usize; 3], [usize; 2], [usize; 3], [usize; 2]);

#[test]
fn rect_transfers_match_the_host_model_byte_by_byte() {
    let env = Env::new();
    const N: usize = 8192;
    let cases: [RectCase; 5] = [
        // (region, buffer origin, buffer pitches, host origin, host pitches)
        ([5, 3, 2], [1, 2, 1], [16, 64], [2, 0, 1], [7, 28]),
        ([16, 4, 1], [0, 0, 0], [0, 0], [3, 1, 0], [20, 0]),
        ([1, 1, 1], [7, 9, 3], [11, 121], [0, 0, 0], [0, 0]),
        ([9, 7, 3], [4, 1, 2], [32, 0], [1, 2, 3], [10, 80]),
        ([32, 8, 4], [0, 0, 0], [0, 0], [0, 0, 0], [0, 0]),
    ];
    for (i, &(region, b_origin, b_pitch, h_origin, h_pitch)) in cases.iter().enumerate() {
        let init = bytes(N, 100 + i as u32);
        let host_src = bytes(N, 200 + i as u32);
        // Write rect: host -> buffer.
        let m = buffer(env.ctx, N);
        assert_eq!(write(env.q, m, 0, &init), CL_SUCCESS);
        // SAFETY: the arrays outlive the blocking call; the host rect is
        // inside `host_src` (the model indexes it too).
        let rc = unsafe {
            clEnqueueWriteBufferRect(
                env.q,
                m,
                CL_TRUE,
                b_origin.as_ptr(),
                h_origin.as_ptr(),
                region.as_ptr(),
                b_pitch[0],
                b_pitch[1],
                h_pitch[0],
                h_pitch[1],
                host_src.as_ptr() as _,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "write rect case {i}");
        let mut expect = init.clone();
        model_rect(
            &mut expect,
            b_origin,
            b_pitch,
            &host_src,
            h_origin,
            h_pitch,
            region,
        );
        assert!(read_all(env.q, m, N) == expect, "write rect case {i}");
        // Read rect: buffer -> host.
        let mut host_dst = init.clone();
        // SAFETY: as above.
        let rc = unsafe {
            clEnqueueReadBufferRect(
                env.q,
                m,
                CL_TRUE,
                b_origin.as_ptr(),
                h_origin.as_ptr(),
                region.as_ptr(),
                b_pitch[0],
                b_pitch[1],
                h_pitch[0],
                h_pitch[1],
                host_dst.as_mut_ptr() as _,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "read rect case {i}");
        let mut expect_host = init.clone();
        model_rect(
            &mut expect_host,
            h_origin,
            h_pitch,
            &expect,
            b_origin,
            b_pitch,
            region,
        );
        assert!(host_dst == expect_host, "read rect case {i}");
        // Copy rect: buffer -> another buffer, host pitches as destination.
        let d = buffer(env.ctx, N);
        assert_eq!(write(env.q, d, 0, &init), CL_SUCCESS);
        // SAFETY: valid arrays.
        let rc = unsafe {
            clEnqueueCopyBufferRect(
                env.q,
                m,
                d,
                b_origin.as_ptr(),
                h_origin.as_ptr(),
                region.as_ptr(),
                b_pitch[0],
                b_pitch[1],
                h_pitch[0],
                h_pitch[1],
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "copy rect case {i}");
        let mut expect_copy = init.clone();
        model_rect(
            &mut expect_copy,
            h_origin,
            h_pitch,
            &expect,
            b_origin,
            b_pitch,
            region,
        );
        assert!(read_all(env.q, d, N) == expect_copy, "copy rect case {i}");
        release(d);
        release(m);
    }
}

#[test]
fn rect_argument_errors() {
    let env = Env::new();
    let m = buffer(env.ctx, 1024);
    let mut host = vec![0u8; 4096];
    let o = [0usize; 3];
    let call = |b_origin: &[usize; 3],
                region: &[usize; 3],
                bp: [usize; 2],
                hp: [usize; 2],
                p: *mut c_void| {
        // SAFETY: valid arrays; host buffer large enough for every accepted case.
        unsafe {
            clEnqueueReadBufferRect(
                env.q,
                m,
                CL_TRUE,
                b_origin.as_ptr(),
                o.as_ptr(),
                region.as_ptr(),
                bp[0],
                bp[1],
                hp[0],
                hp[1],
                p,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        }
    };
    let hp = host.as_mut_ptr() as *mut c_void;
    assert_eq!(call(&o, &[4, 4, 1], [0, 0], [0, 0], hp), CL_SUCCESS);
    assert_eq!(
        call(&o, &[0, 4, 1], [0, 0], [0, 0], hp),
        CL_INVALID_VALUE,
        "zero region"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [3, 0], [0, 0], hp),
        CL_INVALID_VALUE,
        "row pitch < width"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [8, 16], [0, 0], hp),
        CL_INVALID_VALUE,
        "slice < rows*pitch"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [8, 36], [0, 0], hp),
        CL_INVALID_VALUE,
        "slice not multiple"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [0, 0], [2, 0], hp),
        CL_INVALID_VALUE,
        "host row pitch"
    );
    assert_eq!(
        call(&o, &[32, 32, 2], [0, 0], [0, 0], hp),
        CL_INVALID_VALUE,
        "out of bounds"
    );
    assert_eq!(
        call(&[0, 0, usize::MAX / 4], &[4, 4, 1], [0, 0], [0, 0], hp),
        CL_INVALID_VALUE,
        "overflow"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [0, 0], [0, 0], ptr::null_mut()),
        CL_INVALID_VALUE,
        "NULL ptr"
    );
    // SAFETY: NULL origin is the error under test.
    let rc = unsafe {
        clEnqueueReadBufferRect(
            env.q,
            m,
            CL_TRUE,
            ptr::null(),
            o.as_ptr(),
            [1usize, 1, 1].as_ptr(),
            0,
            0,
            0,
            0,
            hp,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_INVALID_VALUE);
    // Same buffer: pitches must agree, and overlap is refused.
    let r = [8usize, 4, 1];
    let copy_rect = |src_o: [usize; 3], dst_o: [usize; 3], sp: [usize; 2], dp: [usize; 2]| {
        // SAFETY: valid arrays.
        unsafe {
            clEnqueueCopyBufferRect(
                env.q,
                m,
                m,
                src_o.as_ptr(),
                dst_o.as_ptr(),
                r.as_ptr(),
                sp[0],
                sp[1],
                dp[0],
                dp[1],
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        }
    };
    assert_eq!(copy_rect(o, [0, 8, 0], [16, 0], [32, 0]), CL_INVALID_VALUE);
    assert_eq!(
        copy_rect(o, [4, 1, 0], [16, 0], [16, 0]),
        CL_MEM_COPY_OVERLAP
    );
    // Side by side in the same rows: columns 0..8 and 8..16 do not overlap.
    assert_eq!(copy_rect(o, [8, 0, 0], [16, 0], [16, 0]), CL_SUCCESS);
    assert_eq!(copy_rect(o, [0, 4, 0], [16, 0], [16, 0]), CL_SUCCESS);
    finish(env.q);
    release(m);
}

#[test]
fn copy_overlap_in_one_buffer_and_across_sub_buffers() {
    let env = Env::new();
    let m = buffer(env.ctx, 4096);
    assert_eq!(copy(env.q, m, m, 0, 100, 200), CL_MEM_COPY_OVERLAP);
    assert_eq!(copy(env.q, m, m, 100, 0, 101), CL_MEM_COPY_OVERLAP);
    assert_eq!(
        copy(env.q, m, m, 0, 100, 100),
        CL_SUCCESS,
        "touching, not overlapping"
    );
    let (s1, _) = sub(m, 0, 0, 1024);
    let (s2, _) = sub(m, 0, 512, 1024);
    // s1[600..700] is m[600..700]; s2[0..100] is m[512..612]: overlap.
    assert_eq!(copy(env.q, s1, s2, 600, 0, 100), CL_MEM_COPY_OVERLAP);
    assert_eq!(copy(env.q, s1, s2, 600, 200, 100), CL_SUCCESS);
    // A sub-buffer against its own parent.
    assert_eq!(copy(env.q, m, s2, 500, 0, 100), CL_MEM_COPY_OVERLAP);
    assert_eq!(copy(env.q, m, s2, 0, 0, 512), CL_SUCCESS);
    // Different buffers never overlap.
    let other = buffer(env.ctx, 4096);
    assert_eq!(copy(env.q, m, other, 0, 0, 4096), CL_SUCCESS);
    finish(env.q);
    for x in [s1, s2, other, m] {
        release(x);
    }
}

#[test]
fn fills_repeat_every_pattern_size() {
    let env = Env::new();
    const N: usize = 4096;
    let m = buffer(env.ctx, N);
    for size in [1usize, 2, 4, 8, 16, 32, 64, 128] {
        let pattern = bytes(size, size as u32);
        let init = bytes(N, 77);
        assert_eq!(write(env.q, m, 0, &init), CL_SUCCESS);
        let (offset, len) = (size * 3, size * 10);
        // SAFETY: the pattern is copied at enqueue.
        let rc = unsafe {
            clEnqueueFillBuffer(
                env.q,
                m,
                pattern.as_ptr() as _,
                size,
                offset,
                len,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "pattern size {size}");
        let got = read_all(env.q, m, N);
        let mut expect = init.clone();
        for i in 0..len {
            expect[offset + i] = pattern[i % size];
        }
        assert!(got == expect, "pattern size {size}");
    }
    let pat = [0u8; 256];
    let fill = |ps: usize, off: usize, size: usize, p: *const c_void| {
        // SAFETY: `pat` has 256 bytes.
        unsafe { clEnqueueFillBuffer(env.q, m, p, ps, off, size, 0, ptr::null(), ptr::null_mut()) }
    };
    let p = pat.as_ptr() as *const c_void;
    for (ps, off, size) in [
        (0, 0, 8),
        (3, 0, 6),
        (256, 0, 256),
        (4, 2, 8),
        (4, 0, 6),
        (4, 4096, 4),
    ] {
        assert_eq!(
            fill(ps, off, size, p),
            CL_INVALID_VALUE,
            "{ps} {off} {size}"
        );
    }
    assert_eq!(fill(4, 0, 8, ptr::null()), CL_INVALID_VALUE);
    assert_eq!(fill(4, usize::MAX - 3, 8, p), CL_INVALID_VALUE);
    release(m);
}

#[test]
fn map_and_unmap_are_zero_copy_and_counted() {
    let env = Env::new();
    let m = buffer(env.ctx, 1024);
    let data = bytes(1024, 11);
    assert_eq!(write(env.q, m, 0, &data), CL_SUCCESS);
    let (p, rc) = map(env.q, m, CL_MAP_READ | CL_MAP_WRITE, 256, 128);
    assert_eq!(rc, CL_SUCCESS);
    // SAFETY: the mapped region has 128 bytes.
    let view = unsafe { std::slice::from_raw_parts_mut(p as *mut u8, 128) };
    assert_eq!(view, &data[256..384]);
    view[..4].copy_from_slice(&[1, 2, 3, 4]);
    assert_eq!(info::<cl_uint>(m, CL_MEM_MAP_COUNT), 1);
    let (p2, rc) = map(env.q, m, CL_MAP_READ, 0, 16);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(info::<cl_uint>(m, CL_MEM_MAP_COUNT), 2);
    // Overlapping a region mapped for writing is refused.
    assert_eq!(map(env.q, m, CL_MAP_READ, 300, 8).1, CL_INVALID_OPERATION);
    assert_eq!(map(env.q, m, CL_MAP_WRITE, 0, 8).1, CL_INVALID_OPERATION);
    // Map flag and region errors.
    assert_eq!(
        map(
            env.q,
            m,
            CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ,
            512,
            8
        )
        .1,
        CL_INVALID_VALUE
    );
    assert_eq!(map(env.q, m, 1 << 5, 512, 8).1, CL_INVALID_VALUE);
    assert_eq!(map(env.q, m, CL_MAP_READ, 512, 0).1, CL_INVALID_VALUE);
    assert_eq!(map(env.q, m, CL_MAP_READ, 1000, 100).1, CL_INVALID_VALUE);
    assert_eq!(unmap(env.q, m, p), CL_SUCCESS);
    assert_eq!(unmap(env.q, m, p), CL_INVALID_VALUE, "already unmapped");
    assert_eq!(
        unmap(env.q, m, data.as_ptr() as _),
        CL_INVALID_VALUE,
        "never mapped"
    );
    assert_eq!(unmap(env.q, m, p2), CL_SUCCESS);
    finish(env.q);
    assert_eq!(info::<cl_uint>(m, CL_MEM_MAP_COUNT), 0);
    let mut expect = data.clone();
    expect[256..260].copy_from_slice(&[1, 2, 3, 4]);
    assert_eq!(
        read_all(env.q, m, 1024),
        expect,
        "writes through the map land in the buffer"
    );
    // A sub-buffer's map and its parent's write map overlap.
    let (s, _) = sub(m, 0, 128, 256);
    let (ps, rc) = map(env.q, s, CL_MAP_WRITE, 0, 16);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(map(env.q, m, CL_MAP_READ, 130, 4).1, CL_INVALID_OPERATION);
    assert_eq!(
        unmap(env.q, m, ps),
        CL_INVALID_VALUE,
        "mapped through the sub-buffer"
    );
    assert_eq!(unmap(env.q, s, ps), CL_SUCCESS);
    finish(env.q);
    release(s);
    release(m);
}

#[test]
fn released_buffer_lives_until_its_non_blocking_read_completes() {
    let env = Env::new();
    let data = bytes(1 << 20, 21);
    let m = buffer(env.ctx, 1 << 20);
    assert_eq!(write(env.q, m, 0, &data), CL_SUCCESS);
    let gate = user_event(env.ctx);
    let mut out = vec![0u8; 1 << 20];
    let mut done = ptr::null_mut();
    // SAFETY: `out` stays alive until the command completes (waited below).
    let rc = unsafe {
        clEnqueueReadBuffer(
            env.q,
            m,
            CL_FALSE,
            0,
            1 << 20,
            out.as_mut_ptr() as _,
            1,
            &gate,
            &mut done,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    release(m); // as real programs do, right after the enqueue
    assert_ne!(status(done), CL_COMPLETE, "returned before the read ran");
    // Churn the allocator so a freed buffer would be reused.
    let junk: Vec<cl_mem> = (0..8).map(|_| buffer(env.ctx, 1 << 20)).collect();
    assert_eq!(set_status(gate, CL_COMPLETE), CL_SUCCESS);
    assert_eq!(wait(&[done]), CL_SUCCESS);
    assert!(out == data);
    junk.into_iter().for_each(release);
    release_event(done);
    release_event(gate);
}

#[test]
fn non_blocking_write_then_read_in_order() {
    let env = Env::new();
    let m = buffer(env.ctx, 256);
    let data = bytes(256, 4);
    let mut out = vec![0u8; 256];
    let mut ev = ptr::null_mut();
    // SAFETY: `data` and `out` outlive the commands (waited below).
    unsafe {
        assert_eq!(
            clEnqueueWriteBuffer(
                env.q,
                m,
                CL_FALSE,
                0,
                256,
                data.as_ptr() as _,
                0,
                ptr::null(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueReadBuffer(
                env.q,
                m,
                CL_FALSE,
                0,
                256,
                out.as_mut_ptr() as _,
                0,
                ptr::null(),
                &mut ev
            ),
            CL_SUCCESS
        );
    }
    assert_eq!(wait(&[ev]), CL_SUCCESS);
    assert_eq!(out, data);
    release_event(ev);
    release(m);
}

#[test]
fn migrate_validates_and_completes() {
    let env = Env::new();
    let m = buffer(env.ctx, 64);
    let mut ev = ptr::null_mut();
    // SAFETY: valid arrays.
    unsafe {
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 1, &m, 0, 0, ptr::null(), &mut ev),
            CL_SUCCESS
        );
        assert_eq!(wait(&[ev]), CL_SUCCESS);
        release_event(ev);
        assert_eq!(
            clEnqueueMigrateMemObjects(
                env.q,
                1,
                &m,
                CL_MIGRATE_MEM_OBJECT_HOST,
                0,
                ptr::null(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 0, &m, 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 1, ptr::null(), 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 1, &m, 1 << 7, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        let bad: cl_mem = ptr::null_mut();
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 1, &bad, 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_MEM_OBJECT
        );
        assert_eq!(
            clEnqueueMigrateMemObjects(ptr::null_mut(), 1, &m, 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_COMMAND_QUEUE
        );
    }
    release(m);
}
