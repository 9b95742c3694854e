# swizzle audit from the command line (included by CMakeLists.txt here).
swz_audit_ok(Table "9  ttg.local_load +load +LDS.32 +32 +32.00 +1 +32  CONFLICT  transpose.py:12:8.*suggestion.*shared_linear"
             audit ${SWZ_TTGIR}/transpose_conflict.ttgir)
swz_audit_ok(Json "\"accesses\": \\[.*\"instruction\": \"LDS.32\".*\"wavefronts\": 32.0" audit ${SWZ_TTGIR}/transpose_conflict.ttgir --json)
swz_audit_ok(RealMatmul "LDGSTS.128.*wgmma.*ttg.convert_layout" audit ${SWZ_TTGIR}/triton36/matmul_fp16.ttgir)
swz_audit_ok(NotModelled "ttng.tmem_alloc +- +not modelled" audit ${SWZ_TTGIR}/not_modelled.ttgir)
swz_audit_ok(Bench "accesses" audit ${SWZ_TTGIR}/views.ttgir --bench)
add_test(NAME Audit.Stdin COMMAND sh -c "$<TARGET_FILE:swizzle> audit - < ${SWZ_TTGIR}/transpose_conflict.ttgir")
set_tests_properties(Audit.Stdin PROPERTIES PASS_REGULAR_EXPRESSION "<stdin>: 19 lines, 4 warps, 2 shared-memory accesses")
swz_audit_bad(Malformed "malformed.ttgir:4:91: expected '>' to close the '<' at column 40" audit ${SWZ_TTGIR}/malformed.ttgir)
swz_audit_bad(Missing "cannot open" audit ${SWZ_TTGIR}/no_such_kernel.ttgir)
