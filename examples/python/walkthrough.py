# A notebook in a file: layout -> analyze -> solve -> export, one cell at a time.
# Run it whole (PYTHONPATH=build/python python3 examples/python/walkthrough.py) or paste the
# cells into Jupyter. Each "# %%" starts a cell.

# %% [markdown]
# A 16x32 fp32 tile is written row by row (each thread stores a row segment) and read
# column by column. Row-major shared memory puts a column's elements in few banks, so the reads
# conflict; the next cell says how many ways, as the core counts them (no number here to go stale).

# %%
import swizzle

writer = swizzle.Layout({"reg_bases": [[0, 1], [0, 2], [0, 4], [0, 8]],
                         "lane_bases": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 16]],
                         "warp_bases": [], "shape": [16, 32], "element_bits": 32})
reader = swizzle.Layout("#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], "
                        "warpsPerCTA = [1, 1], order = [0, 1]}>", shape=[16, 32])
row_major = swizzle.Layout("(16,32):(32,1)")  # CuTe notation: offset = 32*row + col
print(writer, reader, row_major, sep="\n")

# %% Analyze: the simulator and the algebra side by side.
a = swizzle.analyze(writer, reader, row_major, bits=32)
for side in ("store", "read"):
    s = a[side]
    print(f"{side}: {s['verdict']} per instruction (ideal {s['ideal_wavefronts']}), "
          f"predicted {s['predicted_wavefronts']} by dim(Seg ∩ Thr) = {s['intersection_dim']}")

# %% Solve: the optimal layout, with its proof.
r = swizzle.solve(writer, reader, bits=32)
print("conflict-free:", r["conflict_free"], "| total wavefronts:", r["total_wavefronts"])
print("write:", r["write"]["vec_bits"], "bits,", r["write"]["wavefronts"], "wavefront(s) per instruction")
print("read: ", r["read"]["vec_bits"], "bits,", r["read"]["wavefronts"], "wavefront(s) per instruction")
for step in r["trace"]:
    print(f"- {step['title']}: {step['sentence']}")

# %% The answer is a layout like any other: analyze it, print it as CuTe or Triton.
solved = swizzle.Layout(r["shared"])
check = swizzle.analyze(writer, reader, solved, bits=32)
print("read under the answer:", check["read"]["verdict"])
print(solved.to_mlir())

# %% Export: a self-contained C++ header (or format="triton" / "cute" / "json").
print(swizzle.export_header(solved=r, name="tile_swizzle"))

# %% The bank model underneath: one warp instruction, one address per lane.
print(swizzle.serve("LDS.32", [128 * lane for lane in range(32)]))  # every lane in bank 0: 32 wavefronts
