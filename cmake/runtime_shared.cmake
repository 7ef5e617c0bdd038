# The runtime as a shared library: what a device installs. (runtime owner fills this in.)
