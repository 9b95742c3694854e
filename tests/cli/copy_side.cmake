# A cp.async writer with a global side (--write-copy, --global-dim, --global-pitch, --global-layout):
# priced by conflicts / analyze / solve, carried in their JSON, and bad values refused in one line (exit 2).
# Included from tests/cli/CMakeLists.txt (swz_cli_ok and swz_cli_bad come from there).
set(SWZ_COPY_TILE --preset transpose16x32 --shape 32x8 --bits 32 --write-vec-bits 32 --write-copy ca)

# Rows 128 bytes apart queue the 16 rows of an instruction on two source banks (rule 4: 16 wavefronts);
# rows 160 apart (160 mod 128 = 32) spread them as the shared side does (4).
swz_cli_ok(CopyPitch128 "store: 16 wavefronts, 16-way.*LDGSTS.32.*source banks' turns make 16.*global side: rows 128 bytes apart, contiguous along dim1; cp.async.ca; 16.0 sectors per request \\(ideal 4, worst 16\\), 16.0 lines"
           analyze ${SWZ_COPY_TILE} --global-pitch 128)
swz_cli_ok(CopyPitch160 "store: 4 wavefronts, 4-way conflict per instruction" analyze ${SWZ_COPY_TILE} --global-pitch 160)
swz_cli_ok(CopyDefaultPitch "rows 128 bytes apart \\(the default\\)" conflicts ${SWZ_COPY_TILE})
swz_cli_ok(CopyJson "\"global\": \\{.*\"pitch_bytes\": 160.*\"sectors_per_request\": 16\\.0.*\"verdict\": \"4 wavefronts, 4-way conflict\"" analyze ${SWZ_COPY_TILE} --global-pitch 160 --json)
swz_cli_ok(CopySolveJson "\"write\": \\{.*\"global\": \\{.*\"problem_total_sectors\"" solve ${SWZ_COPY_TILE} --global-pitch 128 --json)
swz_cli_ok(CopyCg "store: 8 wavefronts per instruction \\(ideal 8\\).*LDGSTS.BYPASS.128.*cp.async.cg" analyze --preset tma128_fp16 --write-copy cg)

swz_cli_bad(RefuseCopyPitchPartElement "global_pitch \\(--global-pitch\\): 130 bytes is not a whole number of 32-bit elements"
            analyze ${SWZ_COPY_TILE} --global-pitch 130)
swz_cli_bad(RefuseCopyPitchZero "global_pitch \\(--global-pitch\\): '0' is not a whole number of bytes from 1 to 2\\^30"
            analyze ${SWZ_COPY_TILE} --global-pitch 0)
swz_cli_bad(RefuseCopyPitchNegative "global_pitch \\(--global-pitch\\): '-128' is not a whole number of bytes"
            solve ${SWZ_COPY_TILE} --global-pitch -128)
swz_cli_bad(RefuseCopyPitchHuge "global_pitch \\(--global-pitch\\): 4294967296 is not a number of bytes from 1 to 2\\^30"
            conflicts ${SWZ_COPY_TILE} --global-pitch 4294967296)
swz_cli_bad(RefuseCopyPitchOverlap "global_pitch \\(--global-pitch\\): 16 bytes is less than one row of dim 1 \\(32 bytes\\)"
            analyze ${SWZ_COPY_TILE} --global-pitch 16)
swz_cli_bad(RefuseCopyGlobalDim "global_dim \\(--global-dim\\): 3 is not a dim of the 32x8 tile"
            analyze ${SWZ_COPY_TILE} --global-dim 3)
swz_cli_bad(RefuseCopyWithoutCopy "global_pitch \\(--global-pitch\\): places a cp.async copy's source, but the writer is no copy"
            analyze --preset tma128_fp16 --global-pitch 256)
swz_cli_bad(RefuseCopyGlobalLayoutTile "global_layout \\(--global-layout\\): .*xor2m_shared_32bit.json: the layout covers a 16x32 tensor but the given shape is 32x8"
            analyze ${SWZ_COPY_TILE} --global-layout ${SWZ_CLI_DATA}/xor2m_shared_32bit.json)
