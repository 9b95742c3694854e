# Unity builds: each target's sources are compiled a few at a time as one file, so the
# headers nearly every source includes (nlohmann/json through the problem model, fmt,
# gtest) are parsed, and their templates instantiated, once a batch instead of once a file.
# On two cores this halves a fresh build. -DSWZ_UNITY=OFF compiles file by file (each
# source still includes what it uses; names private to a file must not clash within a target).
option(SWZ_UNITY "Compile each target's sources in batches (unity build)" ON)
if(SWZ_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()
