# Build-time step (cmake -P): hashes every source the library, tools and examples are built from
# and writes OUT, a C file defining ct_source_hash, for manifest.json. Run by the build whenever
# one of those files changed, so an incremental build reports the sources it was built from.
#   cmake -DSOURCE_DIR=... -DOUT=... -P tools/cmake/source_hash.cmake
file(GLOB_RECURSE files
     ${SOURCE_DIR}/src/*.c ${SOURCE_DIR}/src/*.h ${SOURCE_DIR}/src/*.def ${SOURCE_DIR}/src/*.in
     ${SOURCE_DIR}/include/*.h ${SOURCE_DIR}/tools/*.c ${SOURCE_DIR}/tools/*.h
     ${SOURCE_DIR}/examples/*.c ${SOURCE_DIR}/examples/*.h)
# the top CMakeLists.txt by name: a recursive pattern would take any copy of the tree below it too
list(APPEND files ${SOURCE_DIR}/CMakeLists.txt)
list(SORT files)
set(input "")
foreach(f ${files})
  file(SHA256 ${f} h)
  file(RELATIVE_PATH rel ${SOURCE_DIR} ${f})
  string(APPEND input "${h}  ${rel}\n")
endforeach()
string(SHA256 hash "${input}")
list(LENGTH files n)
set(text "/* Generated at build time by tools/cmake/source_hash.cmake: SHA-256 over the SHA-256 and path\n * of each of the ${n} source files the build used. */\nconst char ct_source_hash[] = \"${hash}\";\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
else()
  file(TOUCH ${OUT}) # newer than what it was made from, so the step does not run again
endif()
