# The Debian package (cpack -G DEB, or `cmake --build build --target package`):
# warplint, warplint-lsp, the clang plugin, the rule tables, warplint's own
# headers and clang's resource headers, for Debian bookworm and Ubuntu with
# the distribution's LLVM 22 runtime libraries. Its users install no -dev
# package of LLVM's: the only headers a parse needs from clang (the CUDA
# wrapper headers, stddef.h and the like) travel in share/warplint/clang,
# where warplint looks first (tools/common/FrontendOptions.cpp).

# clang's resource headers, as the clang that warplint was built against has
# them. A source build reads them in place; the package carries a copy.
option(WARPLINT_BUNDLE_CLANG_HEADERS
       "Install clang's resource headers in share/warplint/clang" ON)
if(WARPLINT_BUNDLE_CLANG_HEADERS)
  if(NOT EXISTS "${WARPLINT_CLANG_RESOURCE_DIR}/include/__clang_cuda_runtime_wrapper.h")
    message(FATAL_ERROR "clang's CUDA wrapper headers are not in "
            "${WARPLINT_CLANG_RESOURCE_DIR}/include (Debian: libclang-common-22-dev)")
  endif()
  # FOLLOW_SYMLINK_CHAIN is for files; a directory is copied with its links
  # resolved by listing its files (omp.h may be a link into another package).
  file(GLOB_RECURSE clang_headers RELATIVE "${WARPLINT_CLANG_RESOURCE_DIR}/include"
       "${WARPLINT_CLANG_RESOURCE_DIR}/include/*")
  foreach(h ${clang_headers})
    get_filename_component(d "${h}" DIRECTORY)
    get_filename_component(real "${WARPLINT_CLANG_RESOURCE_DIR}/include/${h}" REALPATH)
    get_filename_component(name "${h}" NAME)
    install(FILES "${real}" DESTINATION "share/warplint/clang/include/${d}"
            RENAME "${name}")
  endforeach()
  set(clang_copyright /usr/share/doc/libclang-common-${LLVM_VERSION_MAJOR}-dev/copyright)
  if(EXISTS ${clang_copyright})
    install(FILES ${clang_copyright} DESTINATION share/doc/warplint
            RENAME copyright.clang-headers)
  endif()
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME warplint)
set(CPACK_PACKAGE_VERSION "${WARPLINT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "static analyzer for CUDA C++ kernels, judged per target GPU")
set(CPACK_PACKAGE_DESCRIPTION
    "warplint warns about what NVIDIA's tuning guides warn about: barriers\
 only part of a block reaches, warp-synchronous code, legacy warp\
 intrinsics, uncoalesced global access, shared-memory bank conflicts,\
 occupancy. It is used like clang-tidy: from the command line\
 (warplint), in the editor (warplint-lsp) and as a clang plugin.\
 With a CUDA toolkit installed it parses against the toolkit's headers and\
 asks its ptxas for register counts; without one it parses against its\
 bundled minimal CUDA declarations.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # warplint_<version>_amd64.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "warplint maintainers")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/warplint/warplint")
# The shared libraries (libLLVM, libclang-cpp, libstdc++) from dpkg-shlibdeps;
# beside them what a CUDA parse reads on the host side: the C and C++ headers
# (libc6-dev, libstdc++-dev; no compiler). A CUDA toolkit is optional.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6-dev, libstdc++-12-dev | libstdc++-dev")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-cuda-toolkit")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
include(CPack)
