#!/usr/bin/env python3
"""Is the evict-first (.cs) hint worth tuning for, on this GPU and on PyTorch's buffers?

  python3 tests/triton/evict_first_hint.py SWIZZLE OUT     (run from the repository root)

For the fastest tile of each element type in the H200's peers runs (fp8 256x256 at 8 warps, 16
rows per lane; fp16 128x128 at 4 warps, 8 rows; fp32 64x64 at 4 warps, 4 rows, each at the
configuration its run tuned to) it runs `swizzle gpu --solve` (transpose_peers.py's run_ours)
with the hint off and on (`--transpose-config`) and prints each run's own figure (its buffers,
paired with its copy baseline); then times both kernels with transpose_peers.py's harness on
PyTorch's tensors, and PyTorch's copy, in 12 alternating rounds, each first in every other round.
Every output is checked. Writes OUT/hint.json (the harness's GB/s). The tuning leaves the hint
out (app/gpu/include/swz/gpu.h) because its worth follows where the buffers lie.
"""
import importlib.util, json, os, statistics, sys, torch
spec = importlib.util.spec_from_file_location("tp", "tests/triton/transpose_peers.py")
tp = importlib.util.module_from_spec(spec); spec.loader.exec_module(tp)
swizzle, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
cases = [("fp8", torch.float8_e4m3fn, 8, 256, 256, 8, 4, {"blocks_walk_m_first": True}),
         ("fp16", torch.float16, 16, 128, 128, 4, 3, {"blocks_walk_m_first": True, "loads_issued_before_stores": True}),
         ("fp32", torch.float32, 32, 64, 64, 4, 2, {"warp_groups_per_block": 2, "blocks_walk_m_first": True})]
res = []
for name, dtype, bits, m, n, warps, rows, cfg in cases:
    x = torch.randn(8192, 8192, device="cuda").to(dtype); y = torch.empty_like(x)
    nbytes = x.numel() * x.element_size()
    layouts = [tp.transpose_access([m, n], fast, tp.vector_log2(bits), warps.bit_length() - 1, rows) for fast in (1, 0)]
    files = tp.write_layouts(os.path.join(out, f"{name}"), layouts, bits)
    tile = {"tile": [m, n], "warps": warps}
    gos = {}
    for hint in (False, True):
        c = dict(cfg, evict_first_hint=hint)
        run, go = tp.run_ours(swizzle, files, os.path.join(out, f"{name}_{hint}.cu"), ["--transpose-config", json.dumps(c), "--no-counters"], x, y, bits, tile)
        assert run["correct"], run
        gos["hint" if hint else "plain"] = go
        print(name, "hint" if hint else "plain", "swizzle gpu", round(run["bandwidth_gbs"]), f'{run["percent_of_baseline"]:.1f}% of {run["baseline_gbs"]:.0f}', flush=True)
    raw = x.view(torch.uint8) if bits == 8 else x
    yraw = torch.empty_like(raw)
    gos["copy"] = lambda: yraw.copy_(raw)
    times = {k: [] for k in gos}
    keys = list(gos)
    for i in range(12):
        for k in (keys if i % 2 == 0 else keys[::-1]):
            times[k].append(tp.median_ms(gos[k], rounds=1))
    g = {k: tp.gbs(nbytes, statistics.median(v)) for k, v in times.items()}
    line = f"{name}: plain {g['plain']:.0f} ({100*g['plain']/g['copy']:.2f}% of copy), hint {g['hint']:.0f} ({100*g['hint']/g['copy']:.2f}%), copy {g['copy']:.0f}"
    print(line, flush=True)
    res.append({"dtype": name, "gbs": g, "rounds": 12, "config": cfg})
    del x, y, raw, yraw; torch.cuda.empty_cache()
json.dump(res, open(os.path.join(out, "hint.json"), "w"), indent=1)
