# Prints a binary's size and its stripped size after it is linked, so every build shows how big
# the full worker (`tunefarm worker`) and the slim one for boards (`tunefarm-rpc-server`) are.
# Usage: cmake -DBINARY=path -DSTRIP=strip -P print_binary_size.cmake
set(stripped "${BINARY}.stripped-size-probe")
execute_process(COMMAND "${STRIP}" -o "${stripped}" "${BINARY}" RESULT_VARIABLE rc)
file(SIZE "${BINARY}" full)
get_filename_component(name "${BINARY}" NAME)
if(rc EQUAL 0)
  file(SIZE "${stripped}" small)
  file(REMOVE "${stripped}")
  math(EXPR small_kb "${small} / 1024")
  message("size: ${name}: ${small_kb} KiB stripped (${full} bytes as built)")
else()
  message("size: ${name}: ${full} bytes as built (strip failed)")
endif()
