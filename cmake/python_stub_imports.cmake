# cmake -DDIR=<generated dir> -P python_stub_imports.cmake: the generated stubs import each other
# through the tunefarm package, and each folder is a package.
file(GLOB_RECURSE stubs ${DIR}/*_pb2.py ${DIR}/*_pb2_grpc.py)
foreach(f ${stubs})
  file(READ ${f} text)
  string(REPLACE "from proto.tunefarm.v1 import" "from tunefarm._generated.proto.tunefarm.v1 import"
    text "${text}")
  file(WRITE ${f} "${text}")
endforeach()
foreach(d ${DIR} ${DIR}/proto ${DIR}/proto/tunefarm ${DIR}/proto/tunefarm/v1)
  if(NOT EXISTS ${d}/__init__.py)
    file(WRITE ${d}/__init__.py "")
  endif()
endforeach()
