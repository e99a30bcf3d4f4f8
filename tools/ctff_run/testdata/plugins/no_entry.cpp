// A shared library that is not a ctff plugin: no CTFF_PLUGIN entry point.
extern "C" __attribute__((visibility("default"))) int not_a_plugin() { return 0; }
