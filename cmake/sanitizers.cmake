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
function(swz_unsanitized_third_party)
  if(TARGET imgui_backends)
    target_compile_options(imgui_backends PRIVATE -fno-sanitize=bounds)
  endif()
endfunction()
if(SWZ_FUZZ OR SWZ_SANITIZE)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL swz_unsanitized_third_party)
endif()
