// A test plugin whose entry point binds nothing (a mistake ctff-run reports).
#include <ctff/run/plugin.hpp>

CTFF_PLUGIN(registry) { (void)registry; }
