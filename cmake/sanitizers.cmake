# ASan + UBSan for the whole build (make test-asan), and libFuzzer instrumentation
# for the fuzz build (make fuzz: clang only).
option(SWZ_FUZZ "Build the libFuzzer targets (clang; implies ASan + UBSan)" OFF)
if(SWZ_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SWZ_FUZZ needs clang (configure with -DCMAKE_CXX_COMPILER=clang++)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(SWZ_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# Dear ImGui's OpenGL loader (a system header compiled into imgui_backends) walks its
# function-pointer table through a union, past the array UBSan's bounds check sees:
# third-party code, left out of that one check; everything else keeps the full set.
#
# stb_image_write's PNG encoder (third-party, core/src/export/png_encoder.cpp, alone in its file) is
# compiled without the sanitizers and at -O2: under them it took over half the time of the lesson
# tests, which write every slide as PNG (the suite's longest after the audit replays). The core's
# code around it keeps every check, and encode_png checks the buffer the encoder reads.
function(swz_unsanitized_third_party)
  if(TARGET imgui_backends)
    target_compile_options(imgui_backends PRIVATE -fno-sanitize=bounds)
  endif()
  set_source_files_properties(${CMAKE_SOURCE_DIR}/core/src/export/png_encoder.cpp DIRECTORY ${CMAKE_SOURCE_DIR}/core
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=all;-O2" SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
if(SWZ_FUZZ OR SWZ_SANITIZE)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL swz_unsanitized_third_party)
endif()
