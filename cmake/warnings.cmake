# Warnings: strict for our own targets, never for third-party glue.
add_library(swz_warnings INTERFACE)
target_compile_options(swz_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
