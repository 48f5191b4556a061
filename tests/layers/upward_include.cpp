// A fixture for the layering check (tests/CMakeLists.txt, layering_refuses_upward_include):
// as a file of the lower layer, this include of the driver must fail the build.
#include "generator/ir/spl.h"
#include "generator/driver/pipeline.h"
