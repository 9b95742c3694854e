# Answers that used to come silently wrong are refused in one line (exit 2) or said out loud.
# Included from tests/cli/CMakeLists.txt (swz_cli_ok, swz_cli_bad and SWZ_CLI_DATA come from there).

# swz_cli_ok_warns(Name STDOUT_REGEX STDERR_REGEX args...): exit status 0, stdout matches, one warning line on stderr.
function(swz_cli_ok_warns name stdout_regex stderr_regex)
  add_test(NAME Cli.${name}
           COMMAND ${CMAKE_COMMAND} -DSTATUS=0 "-DSTDOUT_REGEX=${stdout_regex}" "-DSTDERR_REGEX=${stderr_regex}" -P ${SWZ_EXPECT}
                   -- $<TARGET_FILE:swizzle> ${ARGN})
endfunction()

# -- the element width a layout states is a claim: --bits saying another is refused -----------------
# A bare #ttg.nvmma_shared of elementBitWidth = 16 with --bits 8 was priced as 8-bit.
swz_cli_bad(RefuseNvmmaWidthAgainstBits
            "shared \\(--shared\\): .*ttg_nvmma_shared.mlir: #ttg.nvmma_shared: elementBitWidth = 16 but the given element width is 8 \\(--bits\\)"
            analyze --preset transpose16x32 --shape 64x64 --bits 8 --shared ${SWZ_CLI_DATA}/ttg_nvmma_shared.mlir)
swz_cli_bad(RefuseNvmmaWidthAgainstBitsConflicts "elementBitWidth = 16 but the given element width is 8"
            conflicts --dist ${SWZ_CLI_DATA}/ttg_blocked.mlir --shared ${SWZ_CLI_DATA}/ttg_nvmma_shared.mlir --shape 64x64 --bits 8 --store)
swz_cli_bad(RefuseNvmmaWidthAgainstBitsConvert "elementBitWidth = 16 but the given element width is 8"
            convert ${SWZ_CLI_DATA}/ttg_nvmma_shared.mlir --shape 64x64 --bits 8 --to cute)
# --bits 16 against a layout file that says 32 was priced.
swz_cli_bad(RefuseSharedFileWidthAgainstBits
            "shared \\(--shared\\): .*xor2m_shared_32bit.json: the layout states 32-bit elements but the given element width is 16"
            analyze --shared ${SWZ_CLI_DATA}/xor2m_shared_32bit.json --bits 16)
swz_cli_bad(RefuseSharedFileWidthAgainstBitsConflicts "the layout states 32-bit elements but the given element width is 16"
            conflicts --dist ${SWZ_CLI_DATA}/seed_read.json --shared ${SWZ_CLI_DATA}/xor2m_shared_32bit.json --bits 16)
swz_cli_ok(SharedFileWidthAgreeing "read: 1 wavefront per instruction" analyze --shared ${SWZ_CLI_DATA}/xor2m_shared_32bit.json)

# -- a writer covering half the tile: refused by every command, in the solver's words ---------------
foreach(command analyze conflicts sweep export figure solve)
  swz_cli_bad(RefuseHalfTileWriter.${command}
              "writer \\(--src\\): the writer does not cover the tensor: its bases reach 2\\^8 of the 2\\^9 elements"
              ${command} --src ${SWZ_CLI_DATA}/writer_half_tile.json)
endforeach()
swz_cli_bad(RefuseHalfTileAccess "writer_half_tile.json: the access does not cover the tensor: its bases reach 2\\^8 of the 2\\^9 elements"
            conflicts --dist ${SWZ_CLI_DATA}/writer_half_tile.json --shared ${SWZ_CLI_DATA}/xor2m_shared.json --store)

# -- masks beside a named or given shared layout were dropped without a word -----------------------
swz_cli_bad(RefuseMasksBesideVariant
            "masks \\(--mask\\) 1,2,4,8 given beside variant \\(--layout\\) 'xor-2m': the shared layout is one of"
            analyze --spec ${SWZ_CLI_DATA}/spec_variant_and_masks.json)
swz_cli_bad(RefuseMasksBesideShared "masks \\(--mask\\) 1,2,4,8 given beside shared \\(--shared\\) s.json"
            analyze --spec ${SWZ_CLI_DATA}/spec_shared_and_masks.json)

# -- the default preset is named where its tensor is ----------------------------------------------
swz_cli_bad(DefaultPresetNamed
            "writer \\(--src\\): .*ttg_blocked_tensor.mlir covers a 64x64 tensor but the problem's tensor is 16x32 \\(preset transpose16x32, the default\\)"
            analyze --src ${SWZ_CLI_DATA}/ttg_blocked_tensor.mlir)

# -- presets at any size the CLI takes (--shape stopped at 1024) ---------------------------------
swz_cli_ok(PresetAt4096 "4096x4096 16-bit transpose.*read: " analyze --preset transpose16x32 --shape 4096x4096 --bits 16)
swz_cli_ok(PresetAt32768 "32768x32768 16-bit transpose.*read: " analyze --preset transpose16x32 --shape 32768x32768 --bits 16)
swz_cli_bad(ShapePast32768 "shape \\(--shape\\): 65536 is not a power of two from 2 to 32768" analyze --shape 2x65536)

# -- export says when the layout it writes has bank conflicts --------------------------------------
swz_cli_ok_warns(ExportWarnsOfConflicts "namespace tile_swizzle"
                 "swizzle export: warning: the layout written has bank conflicts: the read takes 16 wavefronts per instruction \\(ideal 1\\)"
                 export --preset transpose16x32)
swz_cli_ok(ExportConflictFreeIsQuiet "namespace tile_swizzle" export --preset transpose16x32 --mask 2,4,8,16)

# -- an unknown flag beside the one it most likely meant --------------------------------------------
swz_cli_bad(DidYouMeanBits "--element-bits: did you mean --bits\\?" analyze --element-bits 16)
swz_cli_bad(DidYouMeanTypo "--buts: did you mean --bits\\?" solve --buts 16)
swz_cli_bad(DidYouMeanBothSides "--vec-bits: did you mean --write-vec-bits or --read-vec-bits\\?" analyze --vec-bits 64)
swz_cli_bad(DidYouMeanNested "--cout: did you mean --count\\?" quiz show --seed 1 --cout 3)

# -- --fail-on-conflict: conflicts a legal layout removes fail; a kernel at the optimum passes, said so --
# The fixed tf32 matmul's cp.async copies stay 3-way: wgmma takes tf32 operands K-major only.
swz_cli_ok(AuditPassesAtTheOptimum
           "3 of 8 modelled accesses have bank conflicts \\(3 at the optimum: no legal layout does better\\).*--fail-on-conflict: passed: the 3 conflicted accesses are at the optimum"
           audit ${PROJECT_SOURCE_DIR}/tests/data/ttgir/fixed/matmul_tf32.ttgir --fail-on-conflict)

# -- solve leads with its answer, the proof after ---------------------------------------------------
swz_cli_ok(SolveAnswerFirst
           "^shared layout \\(offset -> coords\\):\n[^\n]*\n.*\nwrite: STS[^\n]*\nread:  LDS[^\n]*\ntotal: [0-9]+ wavefronts\nmasks: [0-9,]+\n\nwhy "
           solve --preset transpose16x32)

# -- README's flags all exist -----------------------------------------------------------------------
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_FOUND)
  add_test(NAME Cli.ReadmeFlagsExist
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/readme_flags.py ${PROJECT_SOURCE_DIR}/README.md $<TARGET_FILE:swizzle>)
endif()
