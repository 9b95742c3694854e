#!/usr/bin/env python3
"""transpose_layout.py N [transposed]: the distributed layout (JSON) of one side of the benchmarks' NxN
fp16 transpose: each lane holds an 8x8 block (8 elements of a row first), 32 lanes along the rows, 8 warps
down them; `transposed` gives the reader's (the same, its rows being the writer's columns). Bases are
[row, col]. Used by cli_scale.sh and gui_scale.sh."""
import json
import sys

n, transposed = int(sys.argv[1]), len(sys.argv) > 2 and sys.argv[2] in ("1", "transposed")
bits = n.bit_length() - 1
along = [[0, 1 << i] for i in range(bits)]  # along a row
down = [[1 << i, 0] for i in range(bits)]  # down a column
if transposed:
    along, down = down, along  # the reader's rows are the writer's columns
reg = along[:3] + down[:3] + along[8:] + down[6:]
print(json.dumps({"reg_bases": reg, "lane_bases": along[3:8], "warp_bases": down[3:6], "block_bases": [],
                  "shape": [n, n], "element_bits": 16}))
