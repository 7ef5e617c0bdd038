# The device side cross-built for AArch64 (scripts/build-aarch64.sh, TUNEFARM_DEVICE_ONLY) into
# build-aarch64/ of the source tree, wherever the cross compiler and Debian's arm64 gRPC are
# installed: the farm's board tests run its slim worker under qemu-aarch64 and skip, with the
# reason, elsewhere. One folder for every build tree of the checkout (plain, ASan, TSan): the
# device side is built the same way for all of them, without sanitizers, so it is built once.
if(NOT TF_AARCH64_CXX OR NOT EXISTS /usr/lib/aarch64-linux-gnu/cmake/grpc/gRPCConfig.cmake)
  message(STATUS "no arm64 gRPC (libgrpc++-dev:arm64): the AArch64 slim worker is not built")
  return()
endif()
set(TF_AARCH64_DEVICE_DIR ${CMAKE_SOURCE_DIR}/build-aarch64)
set(TF_AARCH64_SLIM_WORKER ${TF_AARCH64_DEVICE_DIR}/tunefarm-rpc-server)
if(TUNEFARM_WERROR)
  set(_tf_a64_werror ON)
else()
  set(_tf_a64_werror OFF)
endif()
# Always run: the script's own ninja knows what is out of date (a second or two when nothing is).
add_custom_target(tf_aarch64_device ALL
  COMMAND ${CMAKE_COMMAND} -E env JOBS=2 WERROR=${_tf_a64_werror}
    ${CMAKE_SOURCE_DIR}/scripts/build-aarch64.sh ${TF_AARCH64_DEVICE_DIR}
  BYPRODUCTS ${TF_AARCH64_SLIM_WORKER}
  COMMENT "Cross-building the device side for AArch64 (scripts/build-aarch64.sh)"
  VERBATIM)
if(TARGET farm_tests)
  add_dependencies(farm_tests tf_aarch64_device)
  target_compile_definitions(farm_tests PRIVATE
    TUNEFARM_AARCH64_SLIM_WORKER="${TF_AARCH64_SLIM_WORKER}")
endif()
