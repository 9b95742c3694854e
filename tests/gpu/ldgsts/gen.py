#!/usr/bin/env python3
"""Case files for the cp.async probe (probe.cu): designed families, not only random draws.

    gen.py SET OUT.txt     writes the probe's case lines and OUT.jsonl (one JSON object per case:
                           kind, mode, pattern, addresses, global), in the same order.
"""
import json
import random
import sys

KINDS = {"ca4": ("LDGSTS.32", 4), "ca8": ("LDGSTS.64", 8), "ca16": ("LDGSTS.128", 16), "cg16": ("LDGSTS.BYPASS.128", 16)}
KINDS.update({k + "n": v for k, v in KINDS.items()})  # the same copies without a src-size operand
KINDS["cg16p"] = KINDS["cg16"]  # the .cg copy under a guard predicate
KINDS["cg16u"] = KINDS["cg16"]  # src-size selected from a predicate beside the copy (Triton 3.6's masked copy)
KINDS["cg16i"] = KINDS["cg16"]  # the ignore-src predicate operand
FORMS = {"n": "plain", "p": "predicate", "u": "selected src-size", "i": "ignore-src"}
BY_NAME = {v[0]: k for k, v in KINDS.items() if k in ("ca4", "ca8", "ca16", "cg16")}  # the src-size form of each


def int8_a_copy(stage=0, warp=0):
    """One warp's copy of Triton's int8 128x128x64 A tile (tests/data/triton/copies/h200-20261128:
    #blocked sizePerThread [1, 16], threadsPerWarp [8, 4]; #shared nvmma 64-byte swizzle; K = 256,
    a 256-byte pitch) at pipeline stage `stage` (the K slice 64 bytes further, the next of 3 shared
    buffers 8 KB on): shared and global byte offsets per lane."""
    a, g = [], []
    for lane in range(32):
        row, chunk = 8 * warp + lane // 4, lane % 4
        a.append((stage % 3) * 8192 + row * 64 + 16 * (chunk ^ ((row >> 1) & 3)))
        g.append(row * 256 + 16 * chunk + 64 * stage)
    return a, g


def shared_patterns(b):
    lanes = range(32)
    return {
        "contig": [l * b for l in lanes],
        "same": [0 for l in lanes],
        "pairs": [(l // 2) * b for l in lanes],
        "stride128": [l * 128 for l in lanes],
        "stride256": [l * 256 for l in lanes],
        "rowswz": [((l // 8) * 128) + (((l % 8) ^ (l // 8)) * b) % 128 for l in lanes],
        "k-walk": [(l % 8) * 128 + (l // 8) * b for l in lanes],
    }


def global_patterns(b, rng):
    lanes = range(32)
    return {
        "contig": [l * b for l in lanes],
        "l16": [l * 16 for l in lanes],
        "l128": [l * 128 for l in lanes],
        "l4096": [l * 4096 for l in lanes],
        "rows8": [(l // 8) * 4096 + (l % 8) * b for l in lanes],
        "k-walk": [l * 512 for l in lanes],
        "rand1M": [rng.randrange(0, 1 << 20, b) for l in lanes],
        "masked": [-1 for l in lanes],
        "halfmask": [l * b if l % 2 == 0 else -1 for l in lanes],
    }


def cases(which):
    rng = random.Random(20261128)
    out = []
    if which == "discover":
        for kind in ("ca16", "cg16", "ca4"):
            b = KINDS[kind][1]
            sp = shared_patterns(b)
            gp = global_patterns(b, rng)
            for sname in ("contig", "same", "stride128", "pairs", "k-walk"):
                for gname in ("contig", "l128", "masked"):
                    out.append((kind, 0, f"{sname} <- {gname}", sp[sname], gp[gname]))
            for mode in (1, 2):
                out.append((kind, mode, "contig <- l128", sp["contig"], gp["l128"]))
                out.append((kind, mode, "contig <- contig", sp["contig"], gp["contig"]))
        out += out[:6]  # repeats: is the counter the same on a second run?
    elif which == "forms":
        for kind in ("ca16", "cg16", "ca16n", "cg16n", "ca4", "ca4n"):
            b = KINDS[kind][1]
            sp = shared_patterns(b)
            gp = global_patterns(b, rng)
            for sname in ("contig", "stride128", "pairs", "same", "k-walk", "rowswz"):
                for gname in ("contig", "l16", "l128", "rand1M", "rows8", "halfmask", "masked"):
                    out.append((kind, 0, f"{sname} <- {gname}", sp[sname], gp[gname]))
        out += out[:30]
    elif which == "l1":
        # Rule 4 was read from cold copies (ncu flushes the caches before each launch: every .ca copy
        # misses L1). A kernel's copies often find their lines in L1 already (a tile's next column of
        # 4-byte copies reads the lines the last one brought; other CTAs on the SM read the same
        # rows). The designed .ca families in three modes: cold, warm (each lane first loads its
        # source word with ld.global.ca) and twice (the same copy back to back, per instruction).
        for kind in ("ca4", "ca8", "ca16", "ca4n"):
            b = KINDS[kind][1]
            sp = shared_patterns(b)
            gp = global_patterns(b, rng)
            for mode in (0, 1, 2):
                for sname in ("contig", "same", "pairs", "stride128", "rowswz", "k-walk"):
                    for gname in ("contig", "l16", "l128", "l4096", "rows8", "rand1M", "halfmask"):
                        out.append((kind, mode, f"{sname} <- {gname}, mode {mode}", sp[sname], gp[gname]))
    elif which == "int8a":
        # The A tile copy of Triton's int8 128x128x64 matmul (tests/data/triton/copies/h200-20261128:
        # #blocked sizePerThread [1, 16], threadsPerWarp [8, 4]; #shared nvmma 64-byte swizzle; K = 256,
        # a 256-byte pitch): each warp's LDGSTS, stage by stage (the K slice 64 bytes further, the next
        # of 3 shared buffers 8 KB on). In the kernel the first stage counts 4 per LDGSTS, the others 8.
        # Mode 3: the warp's four copies of a stage back to back (rows +32 each: shared +2048, global +8192).
        for kind in ("cg16", "cg16n"):
            for mode in (0, 1, 2, 3):
                for stage in range(4):
                    for warp in range(4):
                        a, g = int8_a_copy(stage, warp)
                        out.append((kind, mode, f"int8 A stage {stage} warp {warp}, mode {mode}", a, g))
    elif which == "int8tile":
        # The same A tile copy with its warps at once (probe modes 10 W + S): 1, 2 or 4 warps each
        # issuing its four copies of a stage, one stage or the prologue's two a barrier apart, and
        # the second stage alone; three runs of each. Where the kernel's first stage counts 4 per
        # LDGSTS and one warp alone 8, the warp count or the stage after it says which makes it so;
        # cg16p issues them as Triton does, under a guard predicate.
        for kind in ("cg16n", "cg16", "cg16p"):
            for stage, modes in ((0, (11, 21, 41, 12, 22, 42)), (1, (11, 41))):
                a, g = int8_a_copy(stage)
                for mode in modes:
                    for run in range(3):
                        out.append((kind, mode, f"int8 A from stage {stage}, {mode // 10} warps, {mode % 10} stages, run {run}", a, g))
    elif which == "int8group":
        # The four-warp prologue with each stage's copies committed as a group of their own (modes
        # 100 + 10 W + S, as the kernel's LDGDEPBAR does) beside the same without (mode 42).
        for kind in ("cg16n", "cg16"):
            a, g = int8_a_copy()
            for mode in (141, 142, 42):
                for run in range(3):
                    out.append((kind, mode, f"int8 A from stage 0, 4 warps, {mode % 10} stages, "
                                f"{'a group a stage' if mode > 100 else 'one group'}, run {run}", a, g))
    elif which == "int8self":
        # That prologue with the addresses computed in the kernel from the thread index, as Triton's
        # kernel does (probe modes 300 + 10 S + X): no load before the copies; X = 1 puts eight
        # local-memory stores first, as the kernel's spilled registers come. Three runs each.
        a, g = int8_a_copy()
        for kind in ("cg16n", "cg16", "cg16p"):
            for mode in (310, 320, 311, 321):
                for run in range(3):
                    out.append((kind, mode, f"int8 A computed in the kernel, {(mode - 300) // 10} stages, "
                                f"{'local stores first' if mode % 10 else 'no local stores'}, run {run}", a, g))
    elif which == "int8form":
        # That prologue once more with the copy's mask as Triton 3.6 writes it: src-size 16 or 0
        # selected from a predicate beside the copy (cg16u; in modes 300 + 10 S + X the predicate is
        # the launch's k > 0, uniform, as the kernel's K > 0), and the ignore-src operand (cg16i); the
        # kernel's SASS carries a predicate operand on its LDGSTS (`..., P0`) that no probe form so far
        # produced. Modes 300 + 10 S + X and the table-driven four-warp modes 41, 42; three runs each.
        a, g = int8_a_copy()
        for kind in ("cg16u", "cg16i"):
            for mode in (310, 320, 311, 321, 41, 42):
                for run in range(3):
                    out.append((kind, mode, f"int8 A, {FORMS[kind[-1]]}, mode {mode}, run {run}", a, g))
    elif which == "int8forms":
        # The four-warp prologue in nine forms (probe modes 400 + 10 S + V): the predicate operand
        # with and without a global immediate (+64), the predicate computed as "nothing to copy"
        # with and without, the plain form with and without, the predicate operand after local
        # stores, after local loads, and a 4 us sleep before the second stage. Which of these the
        # kernel's 4-per-copy first stage has and its 8-per-copy second stage (`[R.64+0x40]`, three
        # local stores before it) and loop (`..., !P0`) have not; three runs each.
        a, g = int8_a_copy()
        for mode in [400 + 10 * stages + v for stages in (1, 2) for v in range(1, 10)]:
            for run in range(3):
                out.append(("cg16", mode, f"int8 A, SASS form {mode % 10}, {(mode - 400) // 10} stages, run {run}", a, g))
    elif which == "int8check":
        # The predicate-operand form (V 1) and the plain one (V 6), one stage and two, each launch
        # with the data check (modes 4xx) beside the same binary's launch without it (5xx), the two
        # alternating; three runs each. Whether the check, which comes after the copies, or the
        # build makes the predicate form's count.
        a, g = int8_a_copy()
        for run in range(3):
            for base in (410, 420):
                for v in (1, 6):
                    for check in (0, 100):
                        mode = base + v + check
                        out.append(("cg16", mode, f"int8 A, SASS form {v}, {base // 10 % 10} stages, "
                                    f"{'unchecked' if check else 'checked'}, run {run}", a, g))
    elif which == "small":
        # Four live lanes of one phase, each choosing its source bank (0 or 1 bank group) and its
        # shared bank group; every source on its own 128-byte line and every shared word its own,
        # so a count can only come from which lanes share a bank on either side, and in what order.
        for kind, lanes in (("ca4", (0, 1, 2, 3)), ("ca16", (0, 1, 2, 3)), ("ca4", (3, 9, 20, 31))):
            b = KINDS[kind][1]
            for code in range(256):
                a, g = [-1] * 32, [-1] * 32
                for i, lane in enumerate(lanes):
                    src_group, dst_group = (code >> (2 * i)) & 1, (code >> (2 * i + 1)) & 1
                    g[lane] = (i + 1) * 4096 + src_group * b
                    a[lane] = i * 128 * 4 + dst_group * b
                out.append((kind, 0, f"small {code:08b} lanes {'-'.join(map(str, lanes))}", a, g))
    elif which in ("cgsmall", "cgsmallz"):
        # .cg (LDGSTS.BYPASS.128) in four lanes of one phase, without (cgsmall) and with (cgsmallz) the
        # src-size operand. Family 1: each lane's source on its own line, choosing its 16-byte slot
        # (0 or 1) there, and its shared bank group (0 or 1) in a row of its own. Family 2: each lane
        # reads slot i of one common line or of a line of its own, and writes shared bank group i of
        # row 0 or bank group 0 of a row of its own.
        kind = "cg16n" if which == "cgsmall" else "cg16"
        for code in range(256):
            a, g = [-1] * 32, [-1] * 32
            for i in range(4):
                src, dst = (code >> (2 * i)) & 1, (code >> (2 * i + 1)) & 1
                g[i] = (i + 1) * 4096 + src * 16
                a[i] = i * 512 + dst * 16
            out.append((kind, 0, f"cg own lines {code:08b}", a, g))
        for code in range(256):
            a, g = [-1] * 32, [-1] * 32
            for i in range(4):
                own_line, own_row = (code >> (2 * i)) & 1, (code >> (2 * i + 1)) & 1
                g[i] = ((i + 1) * 4096 if own_line else 65536) + i * 16
                a[i] = (i + 1) * 512 if own_row else i * 16
            out.append((kind, 0, f"cg line or own {code:08b}", a, g))
    elif which == "cgrepeat":
        # The designed .cg families of "forms", each issued three times: is the counter the same?
        base = [c for c in cases("forms")[:-30] if c[0] in ("cg16", "cg16n")]
        for r in range(3):
            out += [(k, m, f"{p} (run {r + 1})", a, g) for k, m, p, a, g in base]
    elif which in ("cgheld", "cgheld2"):  # cgheld2: the same families, fresh random copies
        # Where lanes that move no data, or sit the copy out, point: -2 - X in a case line is such a
        # lane holding X (global: src-size 0 with its pointer at X; shared: the lane skips the copy
        # with X in its shared-address register). Both .cg forms.
        lanes = range(32)
        contig, rows = [l * 16 for l in lanes], [l * 128 for l in lanes]
        rng = random.Random(20261129 if which == "cgheld" else 20261130)
        rand = [rng.randrange(0, 1 << 20, 16) for l in lanes]
        held = lambda xs: [-2 - x for x in xs]
        for kind in ("cg16", "cg16n"):
            for sname, sp in (("contig", contig), ("stride128", rows)):
                for pname, pp in (("at 0", [0] * 32), ("contig", contig), ("l128", rows), ("rand1M", rand),
                                  ("4096+contig", [4096 + x for x in contig])):
                    out.append((kind, 0, f"{sname} <- masked {pname}", sp, held(pp)))
            # tail and alternate masks, the masked lanes pointing where the pattern goes on (as a
            # compiler leaves them) or at the buffer's start
            for mname, live in (("tail16", lambda l: l < 16), ("alt", lambda l: l % 2 == 0), ("tail28", lambda l: l < 28)):
                for pname, at in (("on", lambda l: l * 16), ("at 0", lambda l: 0)):
                    out.append((kind, 0, f"contig <- contig, {mname} masked {pname}", contig,
                                [l * 16 if live(l) else -2 - at(l) for l in lanes]))
            # four live lanes on lines of their own, the other 28 sitting out holding these addresses
            four_a, four_g = [i * 512 for i in range(4)], [(i + 1) * 4096 for i in range(4)]
            for hname, ha, hg in (("0 0", 0, 0), ("16 0", 16, 0), ("0 4096", 0, 4096), ("512 4096", 512, 4096),
                                  ("48 65536", 48, 65536), ("contig", None, None)):
                # a lane that sits out (a < 0) holds the pointer its g entry gives
                a = four_a + [-2 - (l * 16 if ha is None else ha) for l in range(4, 32)]
                g = four_g + [l * 16 if hg is None else hg for l in range(4, 32)]
                out.append((kind, 0, f"four lanes, others hold {hname}", a, g))
        # random copies from small windows, lanes sometimes writing one shared address
        for kind in ("cg16", "cg16n"):
            for i in range(150):
                base = rng.randrange(0, 1 << 16, 128)
                span = rng.choice((256, 512, 1024, 4096))
                a = [rng.randrange(0, 4096, 16) for l in lanes]
                g = [base + rng.randrange(0, span, 16) for l in lanes]
                for l in lanes:
                    if rng.random() < 0.08:
                        a[l] = rng.choice(a)
                out.append((kind, 0, f"random window {span}", a, g))
    elif which == "cgwindows":
        # Fresh random .cg copies after rule 5's rounds, drawn so 16-byte sources repeat: every lane
        # moves data from a window of 64 to 512 bytes (4 to 32 slots for 32 lanes) into shared rows
        # of a window of 512 bytes to 4 KB, a lane now and then writing another's shared address;
        # 200 in the plain form (Triton's) and 100 with src-size.
        rng = random.Random(20261131)
        for kind, count in (("cg16n", 200), ("cg16", 100)):
            for i in range(count):
                base = rng.randrange(0, 1 << 16, 128)
                span = rng.choice((64, 128, 256, 512))
                rows = rng.choice((512, 1024, 4096))
                a = [rng.randrange(0, rows, 16) for _ in range(32)]
                g = [base + rng.randrange(0, span, 16) for _ in range(32)]
                for l in range(32):
                    if rng.random() < 0.05:
                        a[l] = rng.choice(a)
                out.append((kind, 0, f"window {span} into {rows}", a, g))
    elif which == "cgheldx":
        # Lanes that sit a copy out holding registers of their own (seed 20261201): in each copy some
        # lanes copy (random 16-byte slots of a window of 256 B to 4 KB into random slots of the
        # first 2 KB of shared memory) and the others sit out, holding a random shared offset X
        # (a = -2 - X) and a random pointer P into the same window, or holding their own slot with
        # their branch skipping them (a >= 0, g = -2 - P). Without src-size (200 copies) a .cg copy
        # counts such a lane as copying from P to its X; with it (100) not at all.
        rng = random.Random(20261201)
        for kind, count in (("cg16n", 200), ("cg16", 100)):
            for _ in range(count):
                span = rng.choice((256, 512, 1024, 4096))
                base = 4096 * rng.randrange(1, 64)
                out_lanes = rng.sample(range(32), rng.randrange(1, 29))
                a = [rng.randrange(0, 2048, 16) for _ in range(32)]
                g = [base + rng.randrange(0, span, 16) for _ in range(32)]
                skipped = 0
                for lane in out_lanes:
                    pointer = base + rng.randrange(0, span, 16)
                    if rng.random() < 0.25 and kind == "cg16n":  # its branch skips it: it holds its own slot
                        g[lane] = -2 - pointer
                        skipped += 1
                    else:
                        a[lane], g[lane] = -2 - rng.randrange(0, 2048, 16), pointer
                out.append((kind, 0, f"held {len(out_lanes)} ({skipped} skipped), window {span}", a, g))
    elif which == "cgdup":
        # Two lanes reading the same 16 bytes: every .cg copy rule 5 still misses has such lanes
        # (tests/hardware/cg_misses.py). Lanes 0-3 copy 16-byte slots of the line at byte 4096 into
        # slots of shared row 1 (byte 128 + 16 slot). The other lanes sit out with src-size and, as
        # a plain copy counts lanes that sit out, copy the source's byte 0 to shared offset 0
        # without it (one unit of their own). A: lanes 0 and 1 read slot 0 into every pair of
        # distinct slots. B: lanes 0 and 1 read slot 0, lane 2 slot p, into distinct slots (drawn).
        # C: lanes 0 and 1 read one slot, lanes 2 and 3 another, into distinct slots (drawn).
        # D: the 15 copies rule 5 misses, as measured, three times each (E: see below).
        rng = random.Random(20261129)

        def dup_copy(kind, slots, rows):
            live = kind == "cg16"
            a, g = [-1 if live else 0] * 32, [-1 if live else 0] * 32
            for lane, (p, q) in enumerate(zip(slots, rows)):
                g[lane], a[lane] = 4096 + 16 * p, 128 + 16 * q
            return a, g

        for kind in ("cg16", "cg16n"):
            for q0 in range(8):
                for q1 in range(8):
                    if q0 != q1:
                        out.append((kind, 0, f"dup A: slot 0 to {q0} and {q1}", *dup_copy(kind, (0, 0), (q0, q1))))
            for _ in range(96):
                p, q = rng.randrange(1, 8), rng.sample(range(8), 3)
                out.append((kind, 0, f"dup B: slots 0 0 {p} to {q[0]} {q[1]} {q[2]}", *dup_copy(kind, (0, 0, p), q)))
            for _ in range(64):
                p, t = rng.sample(range(8), 2)
                q = rng.sample(range(8), 4)
                out.append((kind, 0, f"dup C: slots {p} {p} {t} {t} to {' '.join(map(str, q))}",
                            *dup_copy(kind, (p, p, t, t), q)))
        misses = {"h100-sm90-ldgsts-seed20261126.jsonl": (152, 160, 300, 476, 488, 604, 624, 628, 1068, 1136),
                  "h200-sm90-ldgsts-cgheld2-20261128.jsonl": (180,),
                  "h200-sm90-ldgsts-rerun-20261125-20261128.jsonl": (1386, 1392, 1550, 1624)}
        data = __file__.rsplit("/", 3)[0] + "/data/hardware/"
        for name, numbers in misses.items():
            lines = open(data + name).read().splitlines()
            for number in numbers:
                d = json.loads(lines[number - 1])
                kind = BY_NAME[d["kind"].removesuffix(".NOZFILL")] + ("n" if d["kind"].endswith(".NOZFILL") else "")
                for r in range(3):
                    out.append((kind, 0, f"miss {name}:{number} was={d['wavefronts']} (run {r + 1})", d["addresses"],
                                d["global"]))
                # E: a src-size miss whose lanes all move data, issued without src-size as well: its
                # sectors' term alone, apart from rule 4's
                if kind == "cg16" and all(x >= 0 for x in d["addresses"] + d["global"]):
                    for r in range(3):
                        out.append(("cg16n", 0, f"miss {name}:{number} plain (run {r + 1})", d["addresses"], d["global"]))
    elif which == "calzero":
        # The 100 src-size .cg copies of `swizzle calibrate --seed 20261129` with lanes that move no
        # data (global -1: src-size 0 at the source's byte 0), which rule 5 prices above the H200's
        # count in 97: each copy as calibrate issued it, then taken apart. The copies write most
        # 16-byte shared slots from several lanes, where the designed sets wrote each once.
        data = __file__.rsplit("/", 3)[0] + "/data/hardware/h200-sm90-ldgsts-seed20261129.jsonl"
        far = 1 << 25  # lines no copy of the file reads
        for line in open(data):
            d = json.loads(line)
            a0, g0 = d["addresses"], d["global"]
            zero = [a >= 0 and g < 0 for a, g in zip(a0, g0)]
            if d["kind"] != "LDGSTS.BYPASS.128" or not any(zero):
                continue
            tag = f"calibrate case {d['case']} was={d['wavefronts']}"

            def variant(name, a_of, g_of):
                out.append(("cg16", 0, f"{tag}: {name}", [a_of(l) for l in range(32)], [g_of(l) for l in range(32)]))

            live = [l for l in range(32) if a0[l] >= 0]
            variant("as calibrate", lambda l: a0[l], lambda l: g0[l])
            variant("no-data lanes left out", lambda l: -1 if zero[l] else a0[l], lambda l: g0[l])
            variant("no-data lanes at lines of their own", lambda l: a0[l],
                    lambda l: -2 - (far + 128 * l) if zero[l] else g0[l])
            variant("no-data lanes moving byte 0", lambda l: a0[l], lambda l: 0 if zero[l] else g0[l])
            variant("no-data lanes moving lines of their own", lambda l: a0[l],
                    lambda l: far + 128 * l if zero[l] else g0[l])
            last = {a0[l] // 16: l for l in live}
            first = {a0[l] // 16: l for l in reversed(live)}
            variant("each slot from its last lane", lambda l: a0[l] if l in last.values() else -1, lambda l: g0[l])
            variant("each slot from its first lane", lambda l: a0[l] if l in first.values() else -1, lambda l: g0[l])
    elif which == "zeroline":
        # Where a lane that moves no data (src-size 0) points: calibrate's copies (calzero) cost the
        # same with it at byte 0 or at a line of its own, nothing for its pointer, where the designed
        # copies with it at byte 0 (inside the lines the other lanes read) cost it there. Each copy
        # below is issued with its no-data lanes' pointers at: a line some lane moving data reads
        # (`data line`), lines nobody reads (`own lines`), one line nobody reads (`one far line`),
        # and with them left out. Designed: the halfmask and masked copies of the corpus (even
        # lanes from l * 16, shared contiguous, k-walk and stride 128); random (seed 20261202):
        # 16-byte slots of a 1-4 KB window into distinct slots of 2 KB, 4-24 lanes moving no data.
        rng = random.Random(20261202)
        far = 1 << 25

        def points(name, a, g, zero):
            data_lines = sorted({g[l] // 128 for l in range(32) if a[l] >= 0 and not zero[l]})
            for where in ("data line", "own lines", "one far line", "left out"):
                gg, aa = list(g), list(a)
                for l in range(32):
                    if not zero[l]:
                        continue
                    if where == "data line":
                        gg[l] = -2 - (128 * rng.choice(data_lines) + 16 * rng.randrange(8) if data_lines else 16 * rng.randrange(8))
                    elif where == "own lines":
                        gg[l] = -2 - (far + 128 * l + 16 * rng.randrange(8))
                    elif where == "one far line":
                        gg[l] = -2 - (far + 16 * rng.randrange(8))
                    else:
                        aa[l] = -1
                out.append(("cg16", 0, f"{name}: no-data lanes {where}", aa, gg))

        shared = shared_patterns(16)
        for sname in ("contig", "k-walk", "stride128", "pairs"):
            a = shared[sname]
            points(f"{sname} <- halfmask", a, [16 * l if l % 2 == 0 else -1 for l in range(32)], [l % 2 == 1 for l in range(32)])
            points(f"{sname} <- quartermask", a, [16 * l if l % 4 else -1 for l in range(32)], [l % 4 == 0 for l in range(32)])
            points(f"{sname} <- masked", a, [-1] * 32, [True] * 32)
        for i in range(60):
            span = rng.choice((1024, 2048, 4096))
            base = 4096 * rng.randrange(1, 64)
            a = [16 * s for s in rng.sample(range(128), 32)]
            g = [base + rng.randrange(0, span, 16) for _ in range(32)]
            zero = [False] * 32
            for l in rng.sample(range(32), rng.randrange(4, 25)):
                zero[l], g[l] = True, -1
            points(f"random {i}, window {span}", a, g, zero)
    elif which.startswith("corpus:"):  # every case of a measured corpus again, its count kept in the pattern
        for line in open(which.split(":", 1)[1]):
            d = json.loads(line)
            # the line's kind names its form (.NOZFILL: issued without a src-size operand)
            kind = BY_NAME[d["kind"].removesuffix(".NOZFILL")] + ("n" if d["kind"].endswith(".NOZFILL") else "")
            if "global" not in d:
                continue  # where its copies read from was not recorded
            g = d["global"]
            out.append((kind, 0, f"was={d['wavefronts']} {d['pattern']}", d["addresses"], g))
    else:
        sys.exit(f"unknown set {which}")
    return out


def main():
    which, path = sys.argv[1], sys.argv[2]
    cs = cases(which)
    if len(sys.argv) > 3:  # a slice of the set: FIRST:COUNT
        first, count = map(int, sys.argv[3].split(":"))
        cs = cs[first:first + count]
    with open(path, "w") as txt, open(path.rsplit(".", 1)[0] + ".jsonl", "w") as js:
        for kind, mode, pattern, a, g in cs:
            txt.write(f"{kind} {mode} {' '.join(map(str, a))} {' '.join(map(str, g))}\n")
            form = FORMS.get(kind[-1], "src-size")
            js.write(json.dumps({"kind": KINDS[kind][0], "form": form, "mode": mode, "pattern": pattern, "addresses": a,
                                 "global": g}) + "\n")
    print(f"{len(cs)} cases")


if __name__ == "__main__":
    main()
