# swizzle audit from the command line (included by CMakeLists.txt here).
swz_audit_ok(Table "9  ttg.local_load +load +LDS.32 +32 +32.00 +1 +32  CONFLICT  transpose.py:12:8.*suggestion \\(1.00 wavefronts\\): #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = \\[1, 0\\]}>"
             audit ${SWZ_TTGIR}/transpose_conflict.ttgir)
swz_audit_ok(Json "\"accesses\": \\[.*\"instruction\": \"LDS.32\".*\"wavefronts\": 32.0" audit ${SWZ_TTGIR}/transpose_conflict.ttgir --json)
swz_audit_ok(RealMatmul "LDGSTS.128.*wgmma.*ttg.convert_layout" audit ${SWZ_TTGIR}/triton36/matmul_fp16.ttgir)
swz_audit_ok(NotModelled "ttng.tmem_alloc +- +tensor memory .*no shared access to price.*ttng.async_tma_copy_global_to_local +- +not modelled" audit ${SWZ_TTGIR}/not_modelled.ttgir)
swz_audit_ok(Bench "accesses" audit ${SWZ_TTGIR}/views.ttgir --bench)
add_test(NAME Audit.Stdin COMMAND sh -c "$<TARGET_FILE:swizzle> audit - < ${SWZ_TTGIR}/transpose_conflict.ttgir")
set_tests_properties(Audit.Stdin PROPERTIES PASS_REGULAR_EXPRESSION "<stdin>: 19 lines, 4 warps, 2 shared-memory accesses")
swz_audit_bad(Malformed "malformed.ttgir:4:91: expected '>' to close the '<' at column 40" audit ${SWZ_TTGIR}/malformed.ttgir)
swz_audit_bad(Missing "cannot open" audit ${SWZ_TTGIR}/no_such_kernel.ttgir)
# What Triton would refuse is a file:line error (status 2), never a "not modelled" row.
swz_audit_bad(UndefinedAlias "undefined_alias.ttgir:9:56: #shared3 is used but never defined"
              audit ${SWZ_TTGIR}/invalid/undefined_alias.ttgir)
swz_audit_bad(SwizzleWidth "swizzle_width.ttgir:3:30: #ttg.nvmma_shared: swizzlingByteWidth = 96 is not 0, 32, 64 or 128"
              audit ${SWZ_TTGIR}/invalid/swizzle_width.ttgir)
swz_audit_bad(ThreadsPerWarp "threads_per_warp.ttgir:1:50: #ttg.blocked: threadsPerWarp = \\[1, 16\\] holds 16 threads, but the module's warps have 32"
              audit ${SWZ_TTGIR}/invalid/threads_per_warp.ttgir)
swz_audit_bad(MisspelledAttribute "misspelled_attribute.ttgir:3:11: #ttg.nvma_shared is not a Triton attribute \\(did you mean #ttg.nvmma_shared\\?\\)"
              audit ${SWZ_TTGIR}/invalid/misspelled_attribute.ttgir)
swz_audit_bad(UnknownKey "unknown_key.ttgir:3:30: #ttg.nvmma_shared has no key 'swizzlingBytWidth' \\(did you mean 'swizzlingByteWidth'\\?\\)"
              audit ${SWZ_TTGIR}/invalid/unknown_key.ttgir)
# An MLIR_ENABLE_DUMP file: one report per module, named by index, first line and pass.
swz_audit_ok(DumpModules "mlir_dump.mlir, module 1 of 3 \\(line 1: IR Dump Before TritonGPURemoveLayoutConversions[^\n]*\n.*mlir_dump.mlir, module 2 of 3 \\(line 86: IR Dump Before TritonGPUReduceDataDuplication.*\n +157 +ttg.async_copy_global_to_local .*mlir_dump.mlir, module 3 of 3 \\(line 291: "
             audit ${SWZ_TTGIR}/mlir_dump.mlir)
swz_audit_ok(DumpModulesJson "\"modules\": \\[.*\"module\": \\{[^}]*\"count\": 3,[^}]*\"first_line\": 86,.*\"first_line\": 291"
             audit ${SWZ_TTGIR}/mlir_dump.mlir --json)
swz_audit_bad(DumpModulesFix "--fix takes a file of one module; '[^']*mlir_dump.mlir' holds 3 \\(lines 1 and 86"
              audit ${SWZ_TTGIR}/mlir_dump.mlir --fix -o ${CMAKE_CURRENT_BINARY_DIR}/dump_fixed.mlir)

# CuTe printouts through swizzle convert (a bare Swizzle needs --units).
set(SWZ_CUTE ${PROJECT_SOURCE_DIR}/tests/data/triton/cute)
swz_audit_ok(CuteGmmaAtom "offset = \\[\\[0, 1\\], \\[0, 2\\], \\[0, 4\\], \\[0, 8\\], \\[0, 16\\], \\[0, 32\\], \\[1, 8\\], \\[2, 16\\], \\[4, 32\\]\\]"
             convert ${SWZ_CUTE}/k_sw128_fp16.cute --to mlir)
swz_audit_bad(CuteBareSwizzle "On element offsets it is CuTe's Sw<3,4,3> o _0 o .*on byte addresses.*--units elements\\|bytes"
              convert ${SWZ_CUTE}/bare_swizzle.cute --to mlir)
swz_audit_ok(CuteBareSwizzleBytes "\\[1, 8\\], \\[2, 16\\], \\[4, 32\\]" convert ${SWZ_CUTE}/bare_swizzle.cute --to mlir --units bytes --bits 16)
swz_audit_ok(CuteBareSwizzleElements "Swizzle<2,4,3> o \\(8,64\\):\\(64,1\\) ; elements" convert ${SWZ_CUTE}/bare_swizzle.cute --to cute --units elements)
# More real Triton 3.6 kernels (tests/triton/dump_kernels.py): attention, layer norm, TMA, histogram.
swz_audit_ok(RealAttention "ttg.local_alloc +store +STS.128 +32 +4.00.*tt.reduce +- +shuffle.*ttg.convert_layout +load +LDSM.x4 +32"
             audit ${SWZ_TTGIR}/triton36/attention_m128.ttgir)
swz_audit_ok(RealLayerNorm "tt.reduce +store +STS.32 +16 +0.56 .*tt.reduce +load +LDS.32 +16 +0.56" audit ${SWZ_TTGIR}/triton36/layer_norm.ttgir)
swz_audit_ok(RealTmaMatmul "ttg.local_alloc +store +STSM.x4 +64 +4.00.*ttng.async_tma_copy_local_to_global +- +not modelled"
             audit ${SWZ_TTGIR}/triton36/tma_matmul.ttgir)
swz_audit_ok(RealHistogram "\"direction\": \"atomic\",.*\"instruction\": \"ATOMS.ADD\",[ \n]*\"instructions\": 8," audit ${SWZ_TTGIR}/triton36/histogram.ttgir --json)
# Legal fixes and CI use.
swz_audit_ok(Tf32KMajorSuggestion "  71  ttg.async_copy_global_to_local[^\n]*\n        suggestion \\(3.00 wavefronts\\): #ttg.blocked<{sizePerThread = \\[1, 1\\], threadsPerWarp = \\[2, 16\\][^\n]*\n        checked against: line 71 cp.async source layout"
             audit ${SWZ_TTGIR}/triton36/matmul_tf32.ttgir)
swz_audit_ok(SummaryNotModelled "1 of 7 modelled accesses have bank conflicts; 0 not modelled; 1 priced only between ideal and worst \\(addresses are index values read at run time: the kernel may have conflicts there\\)" audit ${SWZ_TTGIR}/gather_across_warps.ttgir)
swz_audit_ok(RealScan "tt.scan +store +STS.32 +8 +1.00 .*tt.scan +load +LDS.128 +8 +2.00 .*0 not modelled" audit ${SWZ_TTGIR}/triton36/cumsum_1d.ttgir)
swz_audit_ok(ReduceColumnScratch "tt.reduce +store +STS.32 +64 +8.50 +1 +16 +CONFLICT.*tt.reduce +load +LDS.32 +48 +6.00" audit ${SWZ_TTGIR}/triton36/argmax_axis0.ttgir)
swz_audit_ok(CpAsyncNote "LDGSTS.32 .*cp.async: each shared bank.s writes after its sources. other lanes" audit ${SWZ_TTGIR}/triton36/matmul_tf32.ttgir)
swz_audit_ok(JsonSuggestionObject "\"suggestion\": 0,.*\"suggestions\": \\[.*\"consumers\": \\[.*\"global_sectors_before\": null.*\"patch\": \\[.*\"shared_layout\": \\{"
             audit ${SWZ_TTGIR}/transpose_conflict.ttgir --json)
swz_audit_ok(Directory "argmax_axis0.ttgir: .*transpose_fp8.ttgir: " audit ${SWZ_TTGIR}/triton36)
add_test(NAME Audit.FailOnConflict
         COMMAND sh -c "$<TARGET_FILE:swizzle> audit ${SWZ_TTGIR}/transpose_conflict.ttgir --fail-on-conflict; test \$? -eq 1")
swz_audit_ok(FailOnConflictClean "0 of" audit ${SWZ_TTGIR}/triton36/matmul_fp16.ttgir --fail-on-conflict)
# --fix writes the patched module; auditing it again finds no conflict.
add_test(NAME Audit.FixThenReaudit
         COMMAND sh -c "out=\$(mktemp -d) && $<TARGET_FILE:swizzle> audit ${SWZ_TTGIR}/transpose_conflict.ttgir --fix -o \$out/fixed.ttgir && $<TARGET_FILE:swizzle> audit \$out/fixed.ttgir --fail-on-conflict; rc=\$?; rm -rf \$out; exit \$rc")
set_tests_properties(Audit.FixThenReaudit PROPERTIES PASS_REGULAR_EXPRESSION "written to .*0 of 2 modelled accesses have bank conflicts")
swz_audit_bad(FixNoConflicts "nothing to fix: no modelled access has a bank conflict" audit ${SWZ_TTGIR}/triton36/matmul_fp16.ttgir --fix -o ${CMAKE_CURRENT_BINARY_DIR}/never_written.ttgir)
swz_audit_bad(FixIntoDirectory "cannot write '[^']*': it is a directory" audit ${SWZ_TTGIR}/transpose_conflict.ttgir --fix -o ${CMAKE_CURRENT_BINARY_DIR})
swz_audit_bad(FixUnwritable "no_such_dir/fixed.ttgir" audit ${SWZ_TTGIR}/transpose_conflict.ttgir --fix -o ${CMAKE_CURRENT_BINARY_DIR}/no_such_dir/fixed.ttgir)
swz_audit_bad(FixNotModelled "not_modelled.ttgir:[0-9]+: nothing to fix: no modelled access has a bank conflict, and [0-9]+ accesses are not modelled" audit ${SWZ_TTGIR}/not_modelled.ttgir --fix -o ${CMAKE_CURRENT_BINARY_DIR}/never_written.ttgir)
# Reductions through Triton's scratch, measured on an H200 (2026-11-28, scratch_counters.py): the audit's
# prediction of each kept kernel against its counters; the kernels named here equal on every counter,
# the others differ (README says where), and a change in either list fails.
find_program(SWZ_PYTHON3 python3)
if(SWZ_PYTHON3)
  add_test(NAME Audit.ScratchCountersKeptH200Run
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scratch_counters.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/scratch/h200-20261128
                   colsum_64x128_f32_w4,colsum_64x128_f16_w4,colsum_64x128_f32_w8,colsum_128x64_f16_w8,rowsum_4x2048_f32_w4,rowsum_4x2048_f16_w4,rowsum_8x1024_f32_w8,rowsum_8x1024_f16_w8,argmax_64x128_f32_w4,cumsum_1024_f32_w4,cumsum_128x32_f32_w4,gather_64x32_f32_w4,histogram_1024_w4)
  # The second run: all equal but cumsum_128x32_f16_w4 (2 load wavefronts more measured, on no
  # instruction the kept totals can name: AuditScan.KeptH200RunKnownDifference).
  # The cp.async lines of pipelined matmuls and attention against Nsight Compute's LDGSTS counters (H200,
  # one CTA each; tests/data/triton/copies/h200-20261128/README.md), each line priced over the copies the
  # pipeline issues (--arg: the launch's M, N, K or N_CTX; the loop's predicated-off tail included): equal
  # per LDGSTS on these 13. matmul_int8_128x128x64_w4s3 differs: its first prologue stage measures 4 per
  # LDGSTS where rule 5 gives 8 (the other stage and the loop measure rule 5's 8): Triton's masked form
  # counts its ideal or rule 5, and its lines give both ends (AuditPipeline.AMaskedCopyGivesItsIdealAs...).
  add_test(NAME Audit.CopyCountersKeptH200Run
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/copy_counters.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261128
                   matmul_fp16_128x128x64_w4s3,matmul_fp16_64x64x64_w4s4,matmul_fp16_128x128x64_w8s3,matmul_bf16_128x128x64_w8s3,matmul_fp8_128x128x128_w4s3,matmul_fp8_64x128x128_w4s4,matmul_int8_64x64x128_w4s3,matmul_tf32_64x64x32_w4s3,matmul_tf32_128x128x32_w4s3,matmul_tf32_128x64x32_w4s4,attention_128x64_w8s3,attention_64x64_w4s2,attention_64x32_w4s3
                   --within matmul_int8_128x128x64_w4s3)
  # Matmuls whose K slices are 64 bytes in fp16, bf16 and fp8 (H200, 2026-11-29; its README): each
  # measured inside the two ends its masked copy lines give, none at the upper end.
  add_test(NAME Audit.CopyCountersKeptH200RunK64
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/copy_counters.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261129-k64 ""
                   --within matmul_fp16_128x128x32_w4s3,matmul_bf16_64x64x32_w4s4,matmul_fp8_128x128x64_w4s3)
  # The same kinds of kernel with one LDGSTS's predicate register edited in the cubin (H200, 2026-11-30;
  # its README): every prologue copy at one of the audit's two ends; at K = 4 x BK, in every launch whose
  # output is right, a copy that can count above its ideal counts its ideal exactly when its register
  # is P0; a first stage not reading P0 counts its ideal exactly when no later stage's copy moves data
  # (bf16, and fp16 and fp8 read through PT); and the
  # 170 live prologue A copies of the unedited per-instruction runs kept beside follow both.
  add_test(NAME Audit.EditedCopyPredicatesKeptH200Run
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/patched_copies.py check $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261130-edited)
  # With each kernel's SASS (--sass): every masked copy line priced by the predicate register ptxas gave
  # its LDGSTS, and every kept kernel equal, int8 128x128x64 and the 64-byte K slices included.
  add_test(NAME Audit.CopyCountersKeptH200RunSass
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/copy_counters.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261128
                   matmul_fp16_128x128x64_w4s3,matmul_fp16_64x64x64_w4s4,matmul_fp16_128x128x64_w8s3,matmul_bf16_128x128x64_w8s3,matmul_fp8_128x128x128_w4s3,matmul_fp8_64x128x128_w4s4,matmul_int8_128x128x64_w4s3,matmul_int8_64x64x128_w4s3,matmul_tf32_64x64x32_w4s3,matmul_tf32_128x128x32_w4s3,matmul_tf32_128x64x32_w4s4,attention_128x64_w8s3,attention_64x64_w4s2,attention_64x32_w4s3
                   --within "" --sass)
  add_test(NAME Audit.CopyCountersKeptH200RunK64Sass
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/copy_counters.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261129-k64
                   matmul_fp16_128x128x32_w4s3,matmul_bf16_64x64x32_w4s4,matmul_fp8_128x128x64_w4s3 --within "" --sass)
  # Copy line by copy line, every kept per-LDGSTS run with its kernel's TTGIR (145 launches: K = 1 to 5 x BK,
  # later stages predicated off, edited predicate registers, 34 matmuls measured after the rule was
  # written, 20 of them after the audit's rule was final), audited with the SASS that ran: all 859
  # lines equal in wavefronts and executions.
  add_test(NAME Audit.SassCopiesKeptH200Runs
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/sass_copies.py $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies)
  # 145 audits in their own processes, two minutes under the sanitizers: started first (COST; a fresh
  # build's run keeps no timings), so they do not run alone at the suite's end. Likewise the edge masks.
  set_tests_properties(Audit.SassCopiesKeptH200Runs PROPERTIES COST 900)
  # The same copies without ncu's cache flush (--cache-control none): the same counts, int8 128x128x64 too.
  add_test(NAME Audit.CopyCountersKeptH200RunNoCache
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/copy_counters.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261129-nocache
                   matmul_fp16_128x128x64_w4s3,matmul_int8_64x64x128_w4s3,matmul_tf32_64x64x32_w4s3)
  # Matmuls masked lane by lane at a tile's edge in M, N and K (H200, 2026-11-29;
  # tests/data/triton/copies/h200-20261129-edge-masks/README.md): every launch inside the audit's two
  # ends; at its price the fp16 and fp8 launches whose rows lie a multiple of 128 bytes apart (and
  # fp8's N edge at a 96-byte pitch) and every launch of the tf32 kernel, whose copies move 4 bytes a
  # lane (.ca), three whole grids (each program at its program ids) among them.
  add_test(NAME Audit.EdgeMasksKeptH200Run
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/edge_masks.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261129-edge-masks
                   fp16_128x128x64_w4s3/live,fp16_128x128x64_w4s3/m_edge,fp16_128x128x64_w4s3/n_edge,fp16_128x128x64_w4s3/n_edge_again,fp16_128x128x64_w4s3/k_tail,tf32_64x64x32_w4s3_odd/live,tf32_64x64x32_w4s3_odd/m_edge,tf32_64x64x32_w4s3_odd/n_edge,tf32_64x64x32_w4s3_odd/n_edge_again,tf32_64x64x32_w4s3_odd/n_edge_pitch,tf32_64x64x32_w4s3_odd/k_tail,tf32_64x64x32_w4s3_odd/k_tail_pitch,tf32_64x64x32_w4s3_odd/corner_pitch,fp8_128x128x128_w4s3/live,fp8_128x128x128_w4s3/m_edge,fp8_128x128x128_w4s3/n_edge,fp8_128x128x128_w4s3/n_edge_again,fp8_128x128x128_w4s3/n_edge_pitch,fp8_128x128x128_w4s3/k_tail --one-cta)
  set_tests_properties(Audit.EdgeMasksKeptH200Run PROPERTIES COST 800)
  # The whole grids, four of them (208 programs, each audited at its program ids: the suite's longest
  # test, minutes under the sanitizers). Started first (COST: a fresh build's run keeps no timings), and
  # labelled grid-replay: make test-sanitize leaves them to make test, the same audits 208 times over
  # taking no path that the one-CTA launches and AuditEdge.* (a program id given) do not.
  add_test(NAME Audit.EdgeMaskGridsKeptH200Run
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/edge_masks.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261129-edge-masks
                   fp16_128x128x64_w4s3/grid,tf32_64x64x32_w4s3_odd/grid,fp8_128x128x128_w4s3/grid --grids)
  set_tests_properties(Audit.EdgeMaskGridsKeptH200Run PROPERTIES COST 1000 LABELS grid-replay)
  # The second set (H200, 2026-11-29; tests/data/triton/copies/h200-20261129-edge-masks-8w/README.md):
  # eight warps (fp16 64x128 and 128x256, tf32 128x64 with its odd pitch), bf16 128x64 at 4 stages and a
  # 4 x 2 grid: all 33 launches inside the two ends, at the price every launch whose rows lie a multiple
  # of 128 bytes apart and every tf32 launch.
  add_test(NAME Audit.EdgeMasksKeptH200Run8Warps
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/edge_masks.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261129-edge-masks-8w
                   fp16_64x128x64_w8s3/live,fp16_64x128x64_w8s3/m_edge,fp16_64x128x64_w8s3/n_edge,fp16_64x128x64_w8s3/n_edge_again,fp16_64x128x64_w8s3/k_tail,fp16_64x128x64_w8s3/grid,bf16_128x64x64_w4s4/live,bf16_128x64x64_w4s4/m_edge,bf16_128x64x64_w4s4/n_edge,bf16_128x64x64_w4s4/n_edge_again,bf16_128x64x64_w4s4/k_tail,fp16_128x256x64_w8s3/live,fp16_128x256x64_w8s3/m_edge,fp16_128x256x64_w8s3/n_edge,fp16_128x256x64_w8s3/n_edge_again,fp16_128x256x64_w8s3/k_tail,tf32_128x64x32_w8s3_odd/live,tf32_128x64x32_w8s3_odd/m_edge,tf32_128x64x32_w8s3_odd/n_edge,tf32_128x64x32_w8s3_odd/n_edge_again,tf32_128x64x32_w8s3_odd/n_edge_pitch,tf32_128x64x32_w8s3_odd/k_tail,tf32_128x64x32_w8s3_odd/k_tail_pitch,tf32_128x64x32_w8s3_odd/corner_pitch)
  set_tests_properties(Audit.EdgeMasksKeptH200Run8Warps PROPERTIES COST 300)
  # The lanes-walk-K tf32 matmul, its --fix and Triton's own layout, whole kernels at 64^3, 256^3 and
  # 1024^3 (H200; tests/data/triton/copies/h200-20261129-lanes-walk-k/README.md): the audit's price per
  # LDGSTS equal to Nsight Compute's in all 9 (the copy's warps 1-3 hold warp 0's rows, predicated off).
  add_test(NAME Audit.LanesWalkKKeptH200Run
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/copy_counters.py --compare-modules $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261129-lanes-walk-k)
  add_test(NAME Audit.ScratchCountersKeptH200RunB
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scratch_counters.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/scratch/h200-20261128b
                   cumsum_1024_f16_w4,cumsum_1024_f32_w8,cumsum_4096_f32_w8,cumsum_128x32_f32_w8,rowcumsum_16x256_f32_w4,rowcumsum_8x1024_f16_w8,histogram_4096_w8,histogram_1024_b256_w4,gather_64x32_f32_w8,gather_128x64_f16_w4,colsum_32x256_f16_w8,rowsum_16x512_f32_w8)
  # The third run (H200, 2026-11-29; tests/data/triton/scratch/h200-20261129/README.md): the scan split in
  # two, each half equal; the 1-D gathers whose indices are computed equal, the fp32 s32 / s64 ones with
  # registers that repeat another's addresses loaded once. The Gluon gathers: 7 loads a warp measured
  # where 4 distinct address sets are priced (the compiler proves fewer of their repeats; the line
  # gives the range, below).
  add_test(NAME Audit.ScratchCountersKeptH200RunC
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scratch_counters.py --compare $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/scratch/h200-20261129
                   rowcumsum_128x32_f16_w4,cumsum_128x32_f16_w4_f16out,gather1d_1024_f32_w4_s33,gather1d_1024_f32_w4_s32,gather1d_1024_f16_w4_s32,gather1d_2048_f32_w8_s64)
  # Per SASS instruction (ncu's source page) the three scans equal the audit's lines, cumsum_128x32_f16_w4
  # included: its 2 extra load wavefronts are on the kernel counter and on no instruction.
  add_test(NAME Audit.ScratchPerInstructionKeptH200Run
           COMMAND ${SWZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scratch_counters.py --compare-source $<TARGET_FILE:swizzle>
                   ${PROJECT_SOURCE_DIR}/tests/data/triton/scratch/h200-20261129
                   cumsum_128x32_f16_w4,rowcumsum_128x32_f16_w4,cumsum_128x32_f16_w4_f16out)
endif()
# The Gluon gathers' loads: the line prices each distinct set of lane addresses once and gives the
# most there can be, one load per register; the H200 measured 28 loads and 56 wavefronts (fp32) and 28
# and 28 (fp16), inside 16-64 loads and 32-128 (16-64) wavefronts (its PTX keeps one column's repeats).
swz_audit_ok(GluonGatherLoadsBetweenDistinctAndEveryRegister
             "16 loads, one per distinct set of lane addresses in a warp \\(32 wavefronts\\).*up to 64 loads \\(128 wavefronts\\)"
             audit ${PROJECT_SOURCE_DIR}/tests/data/triton/scratch/h200-20261129/gather_gluon_64x32_f32_w4_s33.ttgir)
swz_audit_ok(GluonGatherF16LoadsBetweenDistinctAndEveryRegister
             "16 loads, one per distinct set of lane addresses in a warp \\(16 wavefronts\\).*up to 64 loads \\(64 wavefronts\\)"
             audit ${PROJECT_SOURCE_DIR}/tests/data/triton/scratch/h200-20261129/gather_gluon_64x32_f16_w4_s2.ttgir)
# --arg: the kernel's integer arguments (a pitch, a loop bound); bad ones are one line, exit 2.
swz_audit_ok(ArgGivesTheTripCount "issued 4 times by the scf.for over %acc_63 .*%K = 128 \\(given\\)\\): 2 predicated off at 8.00, 2 live at 10.00"
             audit ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261128/matmul_tf32_64x64x32_w4s3.ttgir --arg K=128)
swz_audit_bad(ArgWithoutValue "--arg 'K': expected NAME=VALUE with an integer VALUE" audit ${SWZ_TTGIR}/triton36/matmul_fp16.ttgir --arg K)
# A value past 64 bits was read as 0 and the audit ran on it.
swz_audit_bad(ArgPast64Bits "--arg 'K=99999999999999999999': expected NAME=VALUE with an integer VALUE" audit ${SWZ_TTGIR}/triton36/matmul_fp16.ttgir --arg K=99999999999999999999)
# A flag's text is named, not repeated: a 5,000-byte --arg shows its first 60 bytes.
string(REPEAT "N" 5000 swz_long_name)
string(REPEAT "N" 60 swz_long_shown)
swz_audit_bad(ArgLongIsClipped "--arg '${swz_long_shown}\\.\\.\\.': expected NAME=VALUE" audit ${SWZ_TTGIR}/triton36/matmul_fp16.ttgir
              --arg ${swz_long_name})
swz_audit_bad(ArgLongNameIsClipped "--arg ${swz_long_shown}\\.\\.\\.: the kernel has no integer argument or program id %${swz_long_shown}\\.\\.\\. "
              audit ${SWZ_TTGIR}/triton36/matmul_fp16.ttgir --arg ${swz_long_name}=1)
swz_audit_bad(ArgNotAnArgument "--arg Q: the kernel has no integer argument or program id %Q" audit
              ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261128/matmul_tf32_64x64x32_w4s3.ttgir --arg Q=3)
# --sass: the kernel's SASS listing, each cp.async matched to its LDGSTS (audit_sass.h). int8 128x128x64
# (H200, h200-20261128): its first stage's LDGSTS read P0 and count their ideal; a listing of another
# kernel, a listing that is not SASS, a missing one and two modules are one line each, exit 2.
set(SWZ_KEPT_COPIES ${PROJECT_SOURCE_DIR}/tests/data/triton/copies/h200-20261128)
swz_audit_ok(SassPricesTheFirstStageAtItsIdeal
             "LDGSTS.128 +16 +4.00 .*\\(SASS lines 80, 82, 84, 85\\) read P0: its ideal"
             audit ${SWZ_KEPT_COPIES}/matmul_int8_128x128x64_w4s3.ttgir --arg K=256 --sass ${SWZ_KEPT_COPIES}/matmul_int8_128x128x64_w4s3.sass)
swz_audit_bad(SassOfAnotherKernel
              "matmul_fp16_128x128x64_w4s3.sass: function matmul \\(line 1\\) issues 48 LDGSTS; the 3 copies of .*matmul_int8_128x128x64_w4s3.ttgir issue 12 per thread"
              audit ${SWZ_KEPT_COPIES}/matmul_int8_128x128x64_w4s3.ttgir --sass ${SWZ_KEPT_COPIES}/matmul_fp16_128x128x64_w4s3.sass)
swz_audit_bad(SassNotAListing "matmul_int8_128x128x64_w4s3.ttgir: no function in it \\(a SASS listing"
              audit ${SWZ_KEPT_COPIES}/matmul_int8_128x128x64_w4s3.ttgir --sass ${SWZ_KEPT_COPIES}/matmul_int8_128x128x64_w4s3.ttgir)
swz_audit_bad(SassMissing "cannot open .*no_such_kernel.sass"
              audit ${SWZ_KEPT_COPIES}/matmul_int8_128x128x64_w4s3.ttgir --sass ${SWZ_KEPT_COPIES}/no_such_kernel.sass)
swz_audit_bad(SassWithTwoModules "--sass .*matmul_int8_128x128x64_w4s3.sass is one kernel's listing: give it one module \\(2 given\\)"
              audit ${SWZ_KEPT_COPIES}/matmul_int8_128x128x64_w4s3.ttgir ${SWZ_KEPT_COPIES}/matmul_int8_64x64x128_w4s3.ttgir
              --sass ${SWZ_KEPT_COPIES}/matmul_int8_128x128x64_w4s3.sass)
